// Runs accounts_cases.mjs in a browser page (tests/web/test_accounts_js.py).
import { cases } from "./accounts_cases.mjs";

const list = document.getElementById("results");
for (const [name, fn] of cases) {
  const item = document.createElement("li");
  try {
    await fn();
    item.className = "pass";
    item.textContent = name;
  } catch (error) {
    item.className = "fail";
    item.textContent = `${name}: ${error.message}`;
  }
  list.appendChild(item);
}
const done = document.createElement("p");
done.id = "done";
document.body.appendChild(done);
