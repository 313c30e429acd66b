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
  netOffline: ["离线", "Offline"],
  netOfflineTitle: ["没有网络：规则和查验照常，联网的牌桌要等网络恢复", "No network: the rules and verify work; server tables wait for it"],
  offlineLobby: ["现在没有网络：联网的牌桌要等网络恢复。", "You are offline: tables on the server need the network."],
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
  callBeat: ["管上", "Beaten"],
  talk: ["快捷语", "Chat"],
  talkHide: ["不看这些座位的快捷语：", "Hide the chat of:"],
  talkSaid: ["{name}：{text}", "{name}: {text}"],
  announceTwo: ["报双", "Two left"],
  outPlace: ["第 {n} 个出完", "Out #{n}"],
  total: ["总分", "Total"],
  thinking: ["思考中 {s}", "Thinking {s}"],
  sending: ["正在发送…", "Sending…"],
  refused: ["服务器拒绝：{reason}", "The server refused: {reason}"],
  resynced: ["已与服务器重新同步", "Resynchronised with the server"],
  disconnected: ["连接中断，正在重连…", "Disconnected, reconnecting…"],
  offlineTurn: ["连接中断：重连后才能出牌（时间到了将由托管代打）", "Disconnected: you can play once reconnected (when your time runs out, auto-play takes over)"],
  connecting: ["正在连接…", "Connecting…"],
  engineLoadingCheck: [
    "规则引擎加载中：选中合法的牌即可出，提示和原因稍后就到",
    "The rules engine is loading: a legal selection can be played; hints and reasons come in a moment",
  ],
  callPick: ["选一张牌", "Pick a card"],
  tableNotFound: ["没有这张牌桌", "There is no such table"],
  lastPlayOf: ["{name} 出的牌", "{name}'s play"],
  onTable: ["桌面", "On the table"],
  // score sheet
  scoreSheet: ["第 {n} 局结算", "Hand {n}: the score"],
  matchOver: ["比赛结束", "The match is over"],
  matchDraw: ["平局：总分相同，没有赢家", "A draw: equal totals, no winner"],
  handDraw: ["本局平局：无人输赢", "This hand is a draw: nobody wins or loses"],
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
  // the keyboard and what a screen reader hears (keys.js): the live region says what others
  // played and when it is your turn; cards are named as players read them
  defaultPlayer: ["玩家{n}", "Player{n}"],
  a11yHand: ["你的手牌", "Your hand"],
  a11yYourTurn: ["轮到你了", "Your turn"],
  a11yPlayedKind: ["{name} 出{kind}：{cards}", "{name} played {kind}: {cards}"],
  a11yPlayedCards: ["{name} 出 {cards}", "{name} played {cards}"],
  a11yPassed: ["{name} 不要", "{name} passed"],
  keysTitle: ["键盘", "Keys"],
  keysMove: ["移动", "move"],
  keysSpace: ["空格", "Space"],
  keysSelect: ["选牌", "select"],
  keysEnter: ["回车", "Enter"],
  keysPlay: ["出牌", "play"],
  keysPass: ["不要", "pass"],
  keysClear: ["重选", "clear"],
  keysHint: ["提示", "hint"],
  // verifying a game in your own browser (verify.js): the engine in the worker audits a log
  verifyTitle: ["在浏览器中验证牌局", "Verify a game in your browser"],
  verifyInBrowser: ["在浏览器中验证", "Verify in your browser"],
  verifyShort: ["验证", "Verify"],
  verifyFile: ["验证一份日志文件", "Verify a log file"],
  verifyLead: [
    "你的浏览器里的规则引擎会在本机逐行重放牌局日志，核对三件事：发牌是否与开局前的承诺值和各家的种子相符，每一步是否符合规则，计分是否正确。日志不会上传，不必相信服务器的说法。",
    "The rules engine in your browser replays the game's log line by line, on this device, and checks three things: that the deal follows from the commitment made before it and the players' seeds, that every move follows the rules, and that the scores are right. The log is not uploaded: you need not take our server's word for anything.",
  ],
  verifyDrop: ["把导出的牌局日志（.jsonl）拖到这里", "Drop an exported game log (.jsonl) here"],
  verifyPick: ["选择文件", "Choose a file"],
  verifyOr: ["或", "or"],
  verifyFileHint: [
    "已结束的牌局：在它的回放页点“在浏览器中验证”，或下载它的日志拖到这里；paiju export 也能导出日志。",
    "For a finished game, use “Verify in your browser” on its replay page, or download its log and drop it here; paiju export saves one too.",
  ],
  verifyTableLead: [
    "牌桌 {id} 的日志从服务器下载后，在你的浏览器里核对。",
    "The log of table {id} is downloaded from our server and checked in your browser.",
  ],
  verifyDownload: ["下载日志（.jsonl）", "Download the log (.jsonl)"],
  verifyReplay: ["查看回放", "Watch the replay"],
  verifyBackReplay: ["返回回放", "Back to the replay"],
  verifyOther: ["验证另一份日志", "Verify another log"],
  verifyReading: ["正在读取 {name}…", "Reading {name}…"],
  verifyFetching: ["正在下载牌局日志…", "Downloading the game's log…"],
  verifyWaitEngine: ["规则引擎加载中，稍候开始核对…", "The rules engine is loading; the check starts in a moment…"],
  verifyRunning: ["正在核对 {n} 行…", "Checking {n} lines…"],
  verifyNotText: ["{name} 不是 UTF-8 文本，无法读取", "{name} is not UTF-8 text and cannot be read"],
  verifyTooBig: ["{name} 太大（{mb} MB），不像是牌局日志", "{name} is too big ({mb} MB) to be a game log"],
  verifyFailedRun: ["核对没能完成：{reason}", "The check could not be done: {reason}"],
  verifySource: ["文件：{name}", "File: {name}"],
  verifySourceTable: ["牌桌 {id} 的日志", "The log of table {id}"],
  verdict_sound: ["可信", "Verified"],
  verdict_incomplete: ["不完整", "Incomplete"],
  verdict_failed: ["有问题", "Problem found"],
  verdictSay_sound: [
    "日志完整：发牌、每一步和计分都已在你的浏览器里核对，没有问题。",
    "The log is complete: the deal, every move and the scores were checked in your browser, and all are right.",
  ],
  verdictSay_incomplete: [
    "目前没有发现问题，但日志在比赛结束前中断，之后的部分无法核对。",
    "Nothing is wrong so far, but the log stops before the match ends: what would follow could not be checked.",
  ],
  verdictSay_failed: ["日志与规则不符，问题见下。", "The log does not follow the rules: see what is wrong below."],
  verifyChecked: ["核对了什么", "What was checked"],
  verifyFindings: ["发现的问题", "What is wrong"],
  verifyFindingsIncomplete: ["没能核对的部分", "What could not be checked"],
  verifyReport: ["完整报告（与 paiju audit 的输出相同）", "The full report (as paiju audit prints it)"],
  check_deal: ["发牌", "The deal"],
  check_rules: ["每一步", "Every move"],
  check_scores: ["计分", "The scores"],
  checkStatus_ok: ["通过", "passed"],
  checkStatus_partial: ["部分核对", "partly checked"],
  checkStatus_failed: ["不符", "failed"],
  checkStatus_none: ["无法核对", "not checked"],
  checkDeal_ok: [
    "{n} 局的发牌都与开局前的承诺值和各家的种子相符",
    "The deals of all {n} hands follow from the commitments and the players' seeds",
  ],
  checkDeal_ok1: [
    "这一局的发牌与开局前的承诺值和各家的种子相符",
    "The deal follows from the commitment made before it and the players' seeds",
  ],
  checkDeal_partial: [
    "核对了 {v} / {n} 局的发牌，都与承诺值和种子相符；最后一局的种子还没有公开，无法核对",
    "{v} of {n} deals were checked against the commitments and the seeds, and they match; the seed of the last is not revealed yet",
  ],
  checkDeal_unrevealed: [
    "这一局的种子还没有公开，发牌无法核对",
    "The seed of the hand is not revealed yet, so its deal could not be checked",
  ],
  checkDeal_failed: ["发牌与承诺值和种子不符", "A deal does not follow from the commitment and the seeds"],
  checkDeal_none: ["日志里没有可核对的发牌", "The log holds no deal that could be checked"],
  checkRules_ok: [
    "全部 {n} 个事件逐一按规则重放，都与规则推导的一致",
    "All {n} events were replayed through the rules, and each is what the rules produce",
  ],
  checkRules_partial: [
    "前 {k} 个事件按规则重放，都一致；之后的无法核对",
    "The first {k} of {n} events were replayed through the rules and match; what follows could not be checked",
  ],
  checkRules_cut: [
    "已有的 {n} 个事件都符合规则，但日志在比赛结束前中断",
    "All {n} events the log holds follow the rules, but it stops before the match ends",
  ],
  checkRules_failed: ["前 {k} 个事件都符合规则，第 {line} 行不符", "The first {k} events follow the rules; line {line} does not"],
  checkRules_none: ["日志里没有可核对的事件", "The log holds no event that could be checked"],
  checkScores_ok: [
    "{n} 局的计分和最终总分都与规则相符",
    "The scores of all {n} hands and the final totals follow the rules",
  ],
  checkScores_ok1: ["这一局的计分和最终总分都与规则相符", "The hand's score and the final totals follow the rules"],
  checkScores_partial: [
    "{n} 局的计分与规则相符；比赛的总分无法核对",
    "The scores of {n} hands follow the rules; the match's totals could not be checked",
  ],
  checkScores_partial1: [
    "打完的这一局计分与规则相符；比赛的总分无法核对",
    "The score of the finished hand follows the rules; the match's totals could not be checked",
  ],
  checkScores_failed: ["计分与规则不符", "A score does not follow the rules"],
  checkScores_none: ["没有一局打完，计分无法核对", "No hand was finished: no score could be checked"],
  checkAtLine: ["（第 {line} 行）", " (line {line})"],
  // the card room (room.js, scores.js, the lobby's history): owner, invites, leaving, the score
  // table, 再来一局
  invite: ["邀请", "Invite"],
  inviteTitle: ["复制入座链接：好友打开即可用自己的昵称入座", "Copy a seat link: a friend who opens it sits down under his own name"],
  inviteCopied: ["入座链接已复制，发给好友吧", "Seat link copied: send it to a friend"],
  copyWatchLink: ["复制观战链接", "Copy the watch link"],
  invitedTitle: ["好友邀请你入座", "You are invited to sit down"],
  invitedHint: ["填好昵称，点入座即可开始。", "Choose your name and sit down."],
  nickname: ["昵称", "Name"],
  sitDown: ["入座", "Sit down"],
  ownerTools: ["房主", "Owner"],
  closeTable: ["关闭牌桌", "Close the table"],
  closeConfirm: ["关闭这张牌桌？还没开局，关闭后谁也不能再入座。", "Close this table? It has not started; once closed nobody can sit down."],
  tableClosed: ["这张牌桌已关闭", "This table is closed"],
  leaveSeat: ["离座", "Leave the seat"],
  seatLeft: ["你已离座", "You left the seat"],
  notReady: ["未准备", "Not ready"],
  scoresButton: ["比分表", "Scores"],
  scoreTable: ["逐局比分", "Hand by hand"],
  scoreTableEmpty: ["还没有打完的一局。", "No hand has been scored yet."],
  handCol: ["局", "Hand"],
  runningTotal: ["累计", "Total"],
  rematch: ["再来一局", "Play again"],
  rematchWaiting: ["等待 {names} 点再来一局", "Waiting for {names} to press Play again"],
  rematchJoin: ["已有人点了再来一局：点一下即可加入", "Someone pressed Play again: press it to join them"],
  rematchOffer: ["{names} 想再来一局", "{names} want to play again"],
  rematchExpires: ["{s} 内有效", "Open for {s}"],
  rematchDecline: ["不了", "No thanks"],
  rematchDeclined: ["已谢绝再来一局", "You declined to play again"],
  someone: ["有人", "Someone"],
  listSep: ["、", ", "],
  historyGame: ["按游戏筛选", "Filter by game"],
  historyAllGames: ["全部游戏", "All games"],
  historyPlayer: ["玩家昵称", "Player's name"],
  historyNone: ["没有符合条件的牌局。", "No game matches."],
  historyMore: ["更多", "More"],
  export: ["导出", "Export"],
  exportTitle: ["下载牌局日志（.jsonl），可用 paiju audit 核对", "Download the game's log (.jsonl), for paiju audit"],
  audit: ["审计", "Audit"],
  auditTitle: ["在你的浏览器里核对发牌、每一步和计分", "Check the deal, every move and the scores in your browser"],
  auditRunning: ["正在核对…", "Checking…"],
  auditSound: ["审计：可信", "Audit: sound"],
  auditIncomplete: ["审计：不完整", "Audit: incomplete"],
  auditFailed: ["审计：有问题", "Audit: failed"],
  // turn clocks, 托管 and 继续 (table.js, board.js)
  clockLeft: ["剩 {s}", "{s} left"],
  yourTurnTitle: ["【轮到你了】", "[Your turn] "],
  autoOn: ["托管", "Auto-play"],
  autoOnTitle: ["让系统替你出牌，直到你取消或亲自出牌", "Let the server play for you until you cancel or act yourself"],
  autoOff: ["取消托管", "Stop auto-play"],
  autoNotice: ["托管中：系统在替你出牌", "Auto-play: the server is playing for you"],
  continueWaiting: ["等待 {names} 继续", "Waiting for {names} to continue"],
  continueDone: ["已继续，等待其他玩家", "Continued: waiting for the others"],
  nextHandIn: ["{s} 后开始下一局", "Next hand in {s}"],
  // leaving during the match, and the table's turn clock (room.js, board.js, lobby.js)
  leaveMatchConfirm: ["离座后由托管代打到本场结束", "After you leave, auto-play plays your seat to the end of the match"],
  seatLeftBadge: ["机器人代打", "Bot (left)"],
  seatLeftTitle: ["玩家已离座，由托管代打到本场结束", "The player left: auto-play plays this seat to the end of the match"],
  clockChoice: ["出牌限时", "Turn clock"],
  clock_standard: ["标准", "Standard"],
  clock_relaxed: ["宽松", "Relaxed"],
  clock_none: ["不限时", "Untimed"],
  clockLine: ["限时：{clock}", "Clock: {clock}"],
  // what happened to my hand that I did not do (board.js, handchange.js)
  handWent: ["交出：{cards}", "Gave: {cards}"],
  handCame: ["收到：{cards}", "Got: {cards}"],
  clockUntimed: ["不限时", "untimed"],
  clockUnknown: ["剩余时间未知", "Time left unknown"],
  clockUnknownTitle: ["连接中断：服务器的计时仍在走，时间到了将由托管代打", "Disconnected: the server's clock runs on; when it runs out, auto-play takes over"],
  // a person's seat with no open connection (board.js)
  offlineBadge: ["断线", "Disconnected"],
  offlineTitle: ["玩家已断线：轮到他时超时即由托管代打", "The player is disconnected: when his time runs out, auto-play takes over"],
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
