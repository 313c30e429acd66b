// Chinese first, English on request. t("key", {params}) picks the current language; the choice
// is kept in localStorage. Engine and server errors carry both languages themselves ({zh, en}).
// These are the page's own words only: everything a game names (its phases, combinations, score
// reasons, events, the words its seats say, its view's facts) comes with the game's words from the
// catalogue (words.js).

const STRINGS = {
  appName: ["牌局", "Paiju"],
  tagline: ["地方扑克，在浏览器里即点即玩", "Regional Chinese card games, in your browser"],
  langSwitch: ["EN", "中文"],
  langSwitchTitle: ["Switch to English", "切换到中文"],
  lobby: ["大厅", "Lobby"],
  engineIdle: ["引擎未启动", "Engine idle"],
  enginePyodide: ["正在加载引擎…", "Loading the engine…"],
  engineWheel: ["正在安装规则引擎…", "Installing the rules engine…"],
  engineReady: ["规则引擎就绪", "Rules engine ready"],
  engineFailed: ["引擎加载失败", "The engine failed to load"],
  // lobby
  games: ["游戏", "Games"],
  region: ["地区", "Region"],
  playersN: ["{n} 人", "{n} players"],
  rules: ["规则", "Rules"],
  rulesNotes: ["开发者的实现说明（含每条规则的出处与取舍）", "Implementation notes for developers (each rule's source and every choice)"],
  rulesForPlayers: ["玩家规则", "Rules for players"],
  houseRulesDefault: ["本桌按默认规则", "This table plays the defaults"],
  backToTable: ["返回牌桌", "Back to the table"],
  newTable: ["开一桌", "New table"],
  game: ["游戏", "Game"],
  variant: ["规则", "Rules"],
  players: ["人数", "Players"],
  yourName: ["你的昵称", "Your name"],
  opponents: ["对手", "Opponents"],
  opponentsBots: ["机器人（马上开局）", "Bots (start now)"],
  opponentsWait: ["等其他玩家入座", "Wait for other players"],
  houseRules: ["房规", "House rules"],
  houseRulesHint: ["不改即按所选规则的默认玩法。", "Leave as is for the rules' defaults."],
  houseRulesLine: ["房规：{rules}", "House rules: {rules}"],
  optionOff: ["否", "no"],
  customList: ["自定义", "Custom"],
  createAndSit: ["创建并入座", "Create and sit down"],
  creating: ["正在创建…", "Creating…"],
  liveTables: ["正在进行", "Live tables"],
  finishedTables: ["已结束的牌局", "Finished games"],
  noLiveTables: ["现在没有进行中的牌桌。开一桌吧！", "No live tables right now. Start one!"],
  noFinishedTables: ["还没有结束的牌局。", "No finished games yet."],
  statusOpen: ["等人中", "Waiting"],
  statusPlaying: ["进行中", "Playing"],
  statusFinished: ["已结束", "Finished"],
  watch: ["观战", "Watch"],
  sit: ["入座", "Sit"],
  replay: ["回放", "Replay"],
  emptySeat: ["空位", "Empty"],
  bot: ["机器人", "Bot"],
  you: ["你", "You"],
  seatN: ["{n}号位", "Seat {n}"],
  pickGame: ["选这个游戏", "Play this"],
  refresh: ["刷新", "Refresh"],
  // table
  backToLobby: ["返回大厅", "Back to the lobby"],
  table: ["牌桌", "Table"],
  handNo: ["第 {n} 局", "Hand {n}"],
  spectating: ["观战中", "Watching"],
  waitingPlayers: ["等待玩家入座", "Waiting for players"],
  waitingHint: ["空位坐满后自动发牌。", "The cards are dealt as soon as every seat is taken."],
  fillBots: ["用机器人补满空位", "Fill empty seats with bots"],
  sitHere: ["坐这里", "Sit here"],
  shareTable: ["复制牌桌链接", "Copy table link"],
  dealing: ["正在发牌…", "Dealing…"],
  yourTurn: ["轮到你出牌", "Your turn"],
  yourLead: ["轮到你出牌（首家）", "Your lead"],
  theirTurn: ["等待 {name} 出牌", "Waiting for {name}"],
  newTrick: ["{name} 先出", "{name} leads"],
  play: ["出牌", "Play"],
  pass: ["不要", "Pass"],
  hint: ["提示", "Hint"],
  clear: ["重选", "Clear"],
  sortRank: ["按大小", "By rank"],
  sortCount: ["按张数", "By count"],
  selectedOf: ["已选 {k} / {n} 张", "{k} / {n} cards selected"],
  ledSuit: ["首出{suit}", "led {suit}"],
  onTop: ["{name} 最大", "{name} on top"],
  bothSides: ["双方", "Both teams"],
  ourSide: ["我方", "Us"],
  theirSide: ["对方", "Them"],
  passed: ["不要", "Pass"],
  noPlays: ["没有能管上的牌", "Nothing beats this"],
  selectCards: ["点选或拖选要出的牌", "Click or drag across cards to select"],
  legalPlay: ["{kind}，可以出", "{kind}: a legal play"],
  cardsLeft: ["剩 {n} 张", "{n} left"],
  announceOne: ["报单", "Last card"],
  announceTwo: ["报双", "Two left"],
  outPlace: ["第 {n} 个出完", "Out #{n}"],
  total: ["总分", "Total"],
  thinking: ["思考中 {s}", "Thinking {s}"],
  sending: ["正在发送…", "Sending…"],
  refused: ["服务器拒绝：{reason}", "The server refused: {reason}"],
  resynced: ["已与服务器重新同步", "Resynchronised with the server"],
  disconnected: ["连接中断，正在重连…", "Disconnected, reconnecting…"],
  connecting: ["正在连接…", "Connecting…"],
  engineLoadingCheck: ["引擎加载中，稍候即可出牌", "The engine is loading; you can play in a moment"],
  callPick: ["选一张牌", "Pick a card"],
  tableNotFound: ["没有这张牌桌", "There is no such table"],
  lastPlayOf: ["{name} 出的牌", "{name}'s play"],
  onTable: ["桌面", "On the table"],
  // score sheet
  scoreSheet: ["第 {n} 局结算", "Hand {n}: the score"],
  matchOver: ["比赛结束", "The match is over"],
  seat: ["座位", "Seat"],
  left: ["剩牌", "Left"],
  thisHand: ["本局", "This hand"],
  winner: ["赢家", "Winner"],
  pays: ["{payer} → {payee}", "{payer} → {payee}"],
  continue: ["继续", "Continue"],
  close: ["关闭", "Close"],
  viewReplay: ["查看回放", "Watch the replay"],
  nextHandSoon: ["下一局马上开始", "The next hand starts shortly"],
  finalTotals: ["最终比分", "Final scores"],
  // replay
  replayOf: ["回放", "Replay"],
  step: ["第 {i} / {n} 步", "Step {i} of {n}"],
  start: ["开始", "Start"],
  back: ["后退", "Back"],
  forward: ["前进", "Forward"],
  end: ["结尾", "End"],
  playPause: ["播放", "Play"],
  pause: ["暂停", "Pause"],
  speed: ["速度", "Speed"],
  copyLink: ["复制此步链接", "Copy a link to this step"],
  copied: ["链接已复制", "Link copied"],
  loadingReplay: ["正在载入牌局记录…", "Loading the game's log…"],
  allHandsOpen: ["明牌回放：所有手牌可见", "Open replay: every hand is shown"],
  deals: ["发牌校验", "Deal check"],
  dealVerified: ["已验证（承诺与种子一致）", "verified (seed matches the commitment)"],
  log: ["牌局记录", "Game log"],
  // the replay's first step, before any event (the events are named by the game's words)
  ev_start: ["牌局开始前", "Before the first event"],
  // rules page
  rulesOf: ["{name} 规则", "{name}: the rules"],
  rulesMissing: [
    "完整规则文档暂缺，以下是规则摘要。",
    "The full rules document is not available; here is the summary.",
  ],
  variants: ["规则变体", "Variants"],
  loading: ["载入中…", "Loading…"],
  errorPrefix: ["出错了：", "Error: "],
  // why a control is disabled (the engine's reason, when it gives one)
  passWhy: ["不能不要：{reason}", "You cannot pass: {reason}"],
  notYourTurnWhy: ["还没轮到你：等待 {name}", "Not your turn yet: waiting for {name}"],
  waitSending: ["等待服务器确认上一步", "Waiting for the server to confirm your move"],
  // sound and the card counter
  mute: ["关闭声音", "Mute"],
  unmute: ["打开声音", "Sound on"],
  tracker: ["记牌器", "Card counter"],
  trackerTitle: ["记牌器：未出且不在你手中的牌", "Card counter: cards neither in your hand nor played"],
  trackerPartial: [
    "中途加入，本局已出的牌没看全，下一局起准确",
    "Joined mid-hand: earlier plays were not seen; exact from the next hand",
  ],
  botName: ["机器人 {n}", "Bot {n}"],
  colon: ["：", ": "],
};

let lang = localStorage.getItem("paiju.lang") === "en" ? "en" : "zh";
const listeners = new Set();

export function getLang() {
  return lang;
}

export function setLang(next) {
  lang = next === "en" ? "en" : "zh";
  localStorage.setItem("paiju.lang", lang);
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  for (const listener of listeners) listener(lang);
}

export function onLang(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function pick(pair, fallback) {
  if (!pair) return fallback;
  return lang === "zh" ? pair[0] : pair[1];
}

export function t(key, params = {}) {
  const text = pick(STRINGS[key], key);
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Text in both languages from the server or the engine: {zh, en} → the current one. */
export function both(obj) {
  if (!obj) return "";
  return lang === "zh" ? (obj.zh ?? obj.en ?? "") : (obj.en ?? obj.zh ?? "");
}

document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
