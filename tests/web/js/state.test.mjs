// Node's built-in test runner: `node --test tests/web/js/`.
import { test } from "node:test";
import { asyncCases, cases } from "./state_cases.mjs";

for (const [name, fn] of [...cases, ...asyncCases]) test(name, fn);
