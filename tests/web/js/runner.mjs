// Runs state_cases.mjs in a browser page (tests/web/test_js_state.py) when Node is absent.
import { asyncCases, cases } from "./state_cases.mjs";

const list = document.getElementById("results");
for (const [name, fn] of [...cases, ...asyncCases]) {
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
