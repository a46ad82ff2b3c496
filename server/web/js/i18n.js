// The interface's own strings in English and Italian; each game module brings its words
// (registered by games/index.js with addWords). translate() fills {name} slots. Values from
// the server (names, chat) are never put into these templates as markup: the caller
// renders the result with textContent.

export const STRINGS = {
  en: {
    language: "Italiano",
    languageLabel: "Switch the language to Italian",
    chooseName: "Choose your name",
    name: "Name",
    continue: "Continue",
    lobby: "Lobby",
    noRooms: "No public rooms yet. Create one!",
    myRooms: "Your rooms",
    createRoom: "Create a room",
    game: "Game",
    create: "Create",
    join: "Join",
    watch: "Watch",
    replay: "Replay",
    room: "Room {room}",
    state_waiting: "waiting",
    state_playing: "playing",
    state_finished: "finished",
    state_aborted: "aborted",
    freeSeat: "free seat",
    seatLabel: "Seat {seat}",
    you: "you",
    host: "host",
    bot: "bot",
    away: "away",
    autopilot: "autopilot",
    addBot: "Add bot",
    addBotTo: "Add a bot to seat {seat}",
    botKind: "Bot for seat {seat}",
    start: "Start",
    leave: "Leave",
    leaveConfirm: "Leave this game? Your seat stays yours, a stand-in may play it.",
    yes: "Yes",
    no: "No",
    invite: "Invite link",
    copy: "Copy",
    waitingPlayers: "Waiting for players…",
    disconnected: "Connection lost: reconnecting…",
    yourTurn: "Your turn",
    turnTimer: "seconds left in this turn",
    turnOf: "{name} to play",
    hint: "Hint",
    hintTitle: "The expert suggests {action}",
    playHint: "Play {action}",
    placings: "Placings",
    place: "{rank}. {name}",
    seedCheck: "Seed {seed} · sha256 published at the start: {hash}",
    seedOk: "the seed matches its commitment ✓",
    seedBad: "the seed does NOT match its commitment",
    log: "Log",
    chat: "Chat",
    chatPlayers: "Players' chat",
    chatSpectators: "Spectators' chat",
    chatOff: "Chat is off in this room.",
    say: "Message",
    send: "Send",
    clocks: "Clocks",
    spectating: "You are watching.",
    back: "Back to the lobby",
    step: "Step {n} of {total}",
    prev: "Previous",
    next: "Next",
    first: "First step",
    last: "Last step",
    ev_aborted: "The game was aborted: {reason}.",
    presets: "Presets",
    loading: "Loading the games…",
    noClient: "This page cannot show {game} games yet.",
    botLevel: "{bot} ({level})",
    help: "Help",
    opt_public: "Public (listed in the lobby)",
    opt_spectators: "Spectators",
    opt_turn_time: "Seconds per turn (0: no limit)",
    opt_clock: "Clock",
    opt_clock_base: "Clock: seconds per player",
    opt_clock_increment: "Clock: seconds added per move",
    opt_autostart: "Start when every seat is taken",
    opt_sit: "Take a seat yourself",
    opt_chat: "Chat",
    choice_spectators_live: "may watch live",
    choice_spectators_after: "only after the end",
    choice_spectators_none: "never",
  },
  it: {
    language: "English",
    languageLabel: "Passa all'inglese",
    chooseName: "Scegli il tuo nome",
    name: "Nome",
    continue: "Continua",
    lobby: "Sala",
    noRooms: "Ancora nessun tavolo pubblico. Creane uno!",
    myRooms: "I tuoi tavoli",
    createRoom: "Crea un tavolo",
    game: "Gioco",
    create: "Crea",
    join: "Siediti",
    watch: "Guarda",
    replay: "Rivedi",
    room: "Tavolo {room}",
    state_waiting: "in attesa",
    state_playing: "in corso",
    state_finished: "finita",
    state_aborted: "interrotta",
    freeSeat: "posto libero",
    seatLabel: "Posto {seat}",
    you: "tu",
    host: "organizzatore",
    bot: "bot",
    away: "assente",
    autopilot: "pilota automatico",
    addBot: "Aggiungi bot",
    addBotTo: "Aggiungi un bot al posto {seat}",
    botKind: "Bot per il posto {seat}",
    start: "Inizia",
    leave: "Esci",
    leaveConfirm: "Lasciare la partita? Il posto resta tuo, un sostituto può giocarlo.",
    yes: "Sì",
    no: "No",
    invite: "Link d'invito",
    copy: "Copia",
    waitingPlayers: "In attesa dei giocatori…",
    disconnected: "Connessione persa: mi riconnetto…",
    yourTurn: "Tocca a te",
    turnTimer: "secondi rimasti per questo turno",
    turnOf: "Tocca a {name}",
    hint: "Consiglio",
    hintTitle: "L'esperto suggerisce {action}",
    playHint: "Gioca {action}",
    placings: "Classifica",
    place: "{rank}. {name}",
    seedCheck: "Seme {seed} · sha256 pubblicato all'inizio: {hash}",
    seedOk: "il seme corrisponde all'impegno ✓",
    seedBad: "il seme NON corrisponde all'impegno",
    log: "Registro",
    chat: "Chat",
    chatPlayers: "Chat dei giocatori",
    chatSpectators: "Chat degli spettatori",
    chatOff: "La chat è spenta in questo tavolo.",
    say: "Messaggio",
    send: "Invia",
    clocks: "Orologi",
    spectating: "Stai guardando.",
    back: "Torna alla sala",
    step: "Passo {n} di {total}",
    prev: "Indietro",
    next: "Avanti",
    first: "Primo passo",
    last: "Ultimo passo",
    ev_aborted: "La partita è stata interrotta: {reason}.",
    presets: "Varianti",
    loading: "Carico i giochi…",
    noClient: "Questa pagina non sa ancora mostrare le partite di {game}.",
    botLevel: "{bot} ({level})",
    help: "Aiuto",
    opt_public: "Pubblico (compare nella sala)",
    opt_spectators: "Spettatori",
    opt_turn_time: "Secondi per turno (0: nessun limite)",
    opt_clock: "Orologio",
    opt_clock_base: "Orologio: secondi per giocatore",
    opt_clock_increment: "Orologio: secondi aggiunti a ogni mossa",
    opt_autostart: "Inizia quando tutti i posti sono presi",
    opt_sit: "Prendi un posto anche tu",
    opt_chat: "Chat",
    choice_spectators_live: "possono guardare in diretta",
    choice_spectators_after: "solo a partita finita",
    choice_spectators_none: "mai",
  },
};

export const LANGS = Object.keys(STRINGS);

/** Every game's words by game name: {en: {...}, it: {...}} (games/index.js fills it). */
export const GAME_WORDS = {};

/** Register a game module's words (English and Italian). */
export function addWords(game, words) {
  GAME_WORDS[game] = words;
}

function lookup(lang, key, game) {
  const own = (game && GAME_WORDS[game]) || {};
  for (const table of [own[lang], STRINGS[lang], own.en, STRINGS.en]) {
    if (table && Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  }
  return undefined;
}

/** Whether `key` has a text (in `game`'s words or the interface's). */
export function hasWord(key, game = null) {
  return lookup("en", key, game) !== undefined;
}

/** The text of `key` in `lang` with `{slot}`s filled from `args`: `game`'s own words first,
 * then the interface's, English as the fallback. When `args.count` is 1 and
 * `key + "_one"` exists, that singular form is used ("1 die"). */
export function translate(lang, key, args = {}, game = null) {
  const one = args.count === 1 && lookup(lang, `${key}_one`, game);
  const template = one || (lookup(lang, key, game) ?? key);
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : whole,
  );
}
