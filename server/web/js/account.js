// Who you are: the first form (play as a guest, or log in to an account) and the account
// page (#/account): claim a guest's name with a password, log in to another account,
// change the password, log out (here or everywhere), and the account's bot accounts with
// their API token, shown once.

import { h } from "./dom.js";
import { playerHash } from "./player.js";
import { isAccount } from "./state.js";

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 1024;

/** Why `password` (and its repetition) cannot be sent, as a key of the page's words; null
 * when it can. */
export function passwordProblem(password, again = password) {
  if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) return "passwordLength";
  if (password !== again) return "passwordsDiffer";
  return null;
}

function value(id) {
  const el = document.getElementById(id);
  return el ? el.value : "";
}

/** Forget what was typed into the password fields (after a form is sent). */
function forgetPasswords(ui) {
  for (const id of Object.keys(ui.fields)) if (id.includes("password") || id.endsWith("-again")) delete ui.fields[id];
}

/** A labelled input whose text survives the page's re-renders (kept in ui.fields). */
function input(ui, id, label, attrs = {}) {
  const kept = id in ui.fields ? ui.fields[id] : attrs.value;
  return h("div", { class: "field-stack" }, h("label", { for: id }, label),
    h("input", { id, name: id, ...attrs, value: kept ?? "", oninput: (e) => { ui.fields[id] = e.target.value; } }));
}

function note(ui) {
  return ui.notice ? h("p", { class: "notice", role: "status", id: "notice" }, ui.notice) : null;
}

function problemLine(ui) {
  return ui.problem ? h("p", { class: "error", role: "alert", id: "form-problem" }, ui.t(ui.problem)) : null;
}

/** Stop a form here when its password is not acceptable (says why); true when it is. */
function checked(ui, password, again) {
  ui.problem = passwordProblem(password, again);
  if (ui.problem) ui.render();
  return !ui.problem;
}

/** The first form: a name to play as a guest, or a name and password to log in. */
export function entryForm(ui) {
  const t = ui.t;
  const login = ui.entryMode === "login";
  const tab = (mode, label) => h("button", { type: "button", id: `tab-${mode}`, role: "tab", "aria-selected": ui.entryMode === mode ? "true" : "false", class: ui.entryMode === mode ? "tab on" : "tab", onclick: () => { ui.entryMode = mode; ui.problem = null; ui.render(); } }, label);
  const tabs = h("div", { class: "tabs", role: "tablist" }, tab("guest", t("playAsGuest")), tab("login", t("logIn")));
  if (!login) {
    const submit = (e) => {
      e.preventDefault();
      const name = value("name").trim();
      if (name) ui.setName(name.slice(0, 32));
    };
    return h("form", { class: "card name-form", onsubmit: submit },
      tabs, note(ui), ui.entryError ? h("p", { class: "error", role: "alert" }, ui.entryError) : null,
      h("h1", {}, t("chooseName")),
      h("label", { for: "name" }, t("name")),
      h("input", { id: "name", name: "name", maxlength: 32, autocomplete: "nickname", required: true, value: ui.fields.name ?? ui.entryName ?? "", oninput: (e) => { ui.fields.name = e.target.value; } }),
      h("p", { class: "muted small-note" }, t("guestNote")),
      h("button", { type: "submit", class: "primary" }, t("continue")));
  }
  const submit = (e) => {
    e.preventDefault();
    const name = value("login-name").trim();
    const password = value("login-password");
    if (!name || !checked(ui, password)) return;
    forgetPasswords(ui);
    ui.logIn(name, password);
  };
  return h("form", { class: "card name-form", id: "login-form", onsubmit: submit },
    tabs, note(ui), problemLine(ui), ui.entryError ? h("p", { class: "error", role: "alert", id: "login-error" }, ui.entryError) : null,
    h("h1", {}, t("logInTitle")),
    input(ui, "login-name", t("name"), { maxlength: 32, autocomplete: "username", required: true, value: ui.entryName || "" }),
    input(ui, "login-password", t("password"), { type: "password", maxlength: MAX_PASSWORD, autocomplete: "current-password", required: true }),
    h("button", { type: "submit", class: "primary", id: "login-submit" }, t("logIn")));
}

/** The account page (#/account). */
export function accountView(ui) {
  const t = ui.t;
  const me = ui.state.player;
  if (!me) return h("section", { class: "card" }, h("p", { class: "muted" }, "…"));
  const head = h("section", { class: "card account-head" },
    h("h1", {}, t("accountOf", { name: me.name })),
    h("p", {}, h("span", { class: "kind", id: "my-kind", "data-kind": me.kind || "guest" }, t(`kind_${me.kind || "guest"}`)), " · ",
      h("a", { href: playerHash(me), id: "my-page" }, t("playerPage", { name: me.name }))),
    note(ui), problemLine(ui));
  if (!isAccount(me)) return h("div", { class: "account" }, head, claimForm(ui, me), otherLoginForm(ui));
  return h("div", { class: "account" }, head, passwordForm(ui), botsView(ui), logoutView(ui));
}

function claimForm(ui, me) {
  const t = ui.t;
  const submit = (e) => {
    e.preventDefault();
    const password = value("claim-password");
    if (!checked(ui, password, value("claim-again"))) return;
    const name = value("claim-name").trim();
    const message = { type: "register", password };
    if (name && name !== me.name) message.name = name;
    forgetPasswords(ui);
    ui.request(message);
  };
  return h("form", { class: "card form-stack", id: "claim-form", onsubmit: submit, "aria-label": t("claimTitle") },
    h("h2", {}, t("claimTitle")),
    h("p", { class: "muted" }, t("guestAccount", { name: me.name }), " ", t("claimNote")),
    input(ui, "claim-name", t("name"), { maxlength: 32, autocomplete: "username", value: me.name }),
    input(ui, "claim-password", t("password"), { type: "password", maxlength: MAX_PASSWORD, autocomplete: "new-password", required: true }),
    input(ui, "claim-again", t("repeatPassword"), { type: "password", maxlength: MAX_PASSWORD, autocomplete: "new-password", required: true }),
    h("button", { type: "submit", class: "primary", id: "claim-submit" }, t("claim")));
}

function otherLoginForm(ui) {
  const t = ui.t;
  const submit = (e) => {
    e.preventDefault();
    const name = value("other-name").trim();
    const password = value("other-password");
    if (!name || !checked(ui, password)) return;
    forgetPasswords(ui);
    ui.request({ type: "login", v: 1, name, password });
  };
  return h("form", { class: "card form-stack", id: "other-login", onsubmit: submit, "aria-label": t("otherLogin") },
    h("h2", {}, t("otherLogin")),
    h("p", { class: "muted" }, t("otherLoginNote")),
    input(ui, "other-name", t("name"), { maxlength: 32, autocomplete: "username", required: true }),
    input(ui, "other-password", t("password"), { type: "password", maxlength: MAX_PASSWORD, autocomplete: "current-password", required: true }),
    h("button", { type: "submit", id: "other-submit" }, t("logIn")));
}

function passwordForm(ui) {
  const t = ui.t;
  const submit = (e) => {
    e.preventDefault();
    const password = value("new-password");
    if (!checked(ui, password, value("new-again"))) return;
    forgetPasswords(ui);
    ui.request({ type: "change_password", old: value("old-password"), new: password });
  };
  return h("form", { class: "card form-stack", id: "password-form", onsubmit: submit, "aria-label": t("changePassword") },
    h("h2", {}, t("changePassword")),
    input(ui, "old-password", t("oldPassword"), { type: "password", maxlength: MAX_PASSWORD, autocomplete: "current-password", required: true }),
    input(ui, "new-password", t("newPassword"), { type: "password", maxlength: MAX_PASSWORD, autocomplete: "new-password", required: true }),
    input(ui, "new-again", t("repeatPassword"), { type: "password", maxlength: MAX_PASSWORD, autocomplete: "new-password", required: true }),
    h("button", { type: "submit", id: "password-submit" }, t("changePassword")));
}

/** Copy `text` to the clipboard (the field's selection where the clipboard API is not
 * offered: plain http from another machine). */
function copy(ui, id) {
  const field = document.getElementById(id);
  const done = () => { ui.copied = true; ui.render(); };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, () => {});
  else {
    field.select();
    document.execCommand("copy");
    done();
  }
}

function tokenPanel(ui) {
  const t = ui.t;
  const shown = ui.state.botToken;
  if (!shown) return null;
  return h("div", { class: "token", role: "region", "aria-label": t("tokenFor", { name: shown.player.name }) },
    h("p", {}, h("strong", {}, t("tokenFor", { name: shown.player.name })), " ", t("tokenOnce")),
    h("div", { class: "token-row" },
      h("input", { id: "bot-token", readonly: true, value: shown.token, "aria-label": t("tokenFor", { name: shown.player.name }) }),
      h("button", { type: "button", id: "copy-token", class: "small", onclick: () => copy(ui, "bot-token") }, ui.copied ? t("copied") : t("copy")),
      h("button", { type: "button", id: "hide-token", class: "small", onclick: () => { ui.state.botToken = null; ui.copied = false; ui.render(); } }, t("hide"))));
}

function botsView(ui) {
  const t = ui.t;
  const submit = (e) => {
    e.preventDefault();
    const name = value("bot-name").trim();
    if (!name) return;
    ui.copied = false;
    delete ui.fields["bot-name"];
    ui.request({ type: "create_bot", name });
  };
  const bots = ui.state.bots;
  return h("section", { class: "card form-stack", id: "bots", "aria-label": t("bots") },
    h("h2", {}, t("bots")),
    h("p", { class: "muted" }, t("botsNote")),
    tokenPanel(ui),
    bots.length
      ? h("ul", { class: "bot-list" }, bots.map((bot) => h("li", { "data-bot": bot.name },
          h("a", { href: `#/player/${encodeURIComponent(bot.name)}` }, bot.name), " ",
          ui.confirmButton(`token-${bot.id}`, t("newToken"), t("newTokenConfirm", { name: bot.name }), () => { ui.copied = false; ui.request({ type: "bot_token", bot: bot.id }); }, t("newTokenFor", { name: bot.name })))))
      : h("p", { class: "muted" }, t("noBots")),
    h("form", { class: "inline-form", onsubmit: submit, "aria-label": t("createBot") },
      h("label", { for: "bot-name" }, t("botName")),
      h("input", { id: "bot-name", maxlength: 32, required: true, value: ui.fields["bot-name"] || "", oninput: (e) => { ui.fields["bot-name"] = e.target.value; } }),
      h("button", { type: "submit", id: "create-bot" }, t("createBot"))));
}

function logoutView(ui) {
  const t = ui.t;
  return h("section", { class: "card actions", "aria-label": t("logOut") },
    h("button", { type: "button", id: "logout", onclick: () => ui.logOut(false) }, t("logOut")),
    ui.confirmButton("logout-all", t("logOutEverywhere"), t("logOutEverywhereConfirm"), () => ui.logOut(true)));
}
