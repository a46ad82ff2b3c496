// Node's built-in test runner: `node --test tests/web/js/accounts.test.mjs`.
import { test } from "node:test";
import { cases } from "./accounts_cases.mjs";

for (const [name, fn] of cases) test(name, fn);
