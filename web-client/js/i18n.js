// Chinese first, English on request. t("key", {params}) picks the current language; the choice
// is kept in localStorage. Engine and server errors carry both languages themselves ({zh, en}).

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
  rules: ["完整规则", "Full rules"],
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
  yourWord: ["轮到你发言", "Your turn to speak"],
  theirWord: ["等待 {name} 发言", "Waiting for {name} to speak"],
  yourCall: ["轮到你叫牌", "Your turn to call a card"],
  theirCall: ["等待 {name} 叫牌", "Waiting for {name} to call a card"],
  yourLead: ["轮到你出牌（首家）", "Your lead"],
  theirTurn: ["等待 {name} 出牌", "Waiting for {name}"],
  newTrick: ["{name} 先出", "{name} leads"],
  play: ["出牌", "Play"],
  pass: ["不要", "Pass"],
  hint: ["提示", "Hint"],
  clear: ["重选", "Clear"],
  sortRank: ["按大小", "By rank"],
  sortCount: ["按张数", "By count"],
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
  bidHelp: [
    "包：一人对三家，先出完者胜；有人包牌后，其下家可以反包（一对一，另两家旁观）。",
    "包: you alone against the other three, the first out wins; after a 包 the next player may answer 反包 (a duel; the other two sit out).",
  ],
  callHelp: [
    "叫牌：选一张你没有的牌，拿到它的人就是你的朋友，两两对打；这张牌打出之前，谁是朋友只有他自己知道。",
    "Call a card you do not hold: its holder becomes your partner, two against two. Until that card is played, only the partner knows.",
  ],
  callConfirm: ["叫 {card}", "Call {card}"],
  callPick: ["选一张牌", "Pick a card"],
  calledCard: ["庄家叫 {card}", "The dealer called {card}"],
  secretPartner: ["你是朋友（暗）", "You are the partner (secret)"],
  benched: ["旁观（不参战）", "Sitting out"],
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
  // events, for the replay and the log
  ev_deal_committed: ["发牌承诺（第 {hand} 局）", "Deal committed (hand {hand})"],
  ev_seed_added: ["{name} 加入种子", "{name} added a seed"],
  ev_dealt: ["发牌，{name} 先出", "Dealt; {name} leads"],
  ev_played: ["{name} 出 {cards}", "{name} plays {cards}"],
  ev_passed: ["{name} 不要", "{name} passes"],
  ev_dealt_word: ["发牌，{name} 先发言", "Dealt; {name} speaks first"],
  ev_bid_made: ["{name} {bid}", "{name}: {bid}"],
  ev_card_called: ["庄家 {name} 叫 {card}", "The dealer {name} calls {card}"],
  ev_hand_ended: ["本局结束", "The hand ends"],
  ev_seed_revealed: ["公开种子", "Seed revealed"],
  ev_match_ended: ["比赛结束", "The match ends"],
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
};

// Combination kinds (the engine's stable codes) and score reasons: a game added later shows its
// code until a name is added here.
const KINDS = {
  single: ["单张", "single"],
  pair: ["对子", "pair"],
  triple: ["三条", "triple"],
  trio_single: ["三带一", "triple with one"],
  trio_pair: ["三带二", "triple with two"],
  straight: ["顺子", "straight"],
  pair_run: ["连对", "run of pairs"],
  triple_run: ["飞机", "run of triples"],
  plane_wings: ["飞机带翅膀", "plane with wings"],
  four_two: ["四带二", "four with two"],
  bomb: ["炸弹", "bomb"],
  quad: ["四条", "four of a kind"],
  banzipao: ["板子炮", "run of pairs (板子炮)"],
  dou: ["豆", "four of a kind (豆)"],
  guntong: ["滚筒", "run of triples (滚筒)"],
  flush: ["同花", "flush"],
  full_house: ["葫芦", "full house"],
  four_kind: ["铁枝", "four of a kind + 1"],
  straight_flush: ["同花顺", "straight flush"],
};
const REASONS = {
  cards_left: ["剩牌", "cards left"],
  guan: ["被关（加倍）", "shut out (double)"],
  dingda_cards_left: ["顶大包赔", "顶大: pays for a loser"],
  dingda_guan: ["顶大包赔（被关）", "顶大: pays for a shut-out loser"],
  bomb: ["炸弹", "bomb"],
  full_win: ["全胜", "full win"],
  half_win: ["半胜", "half win"],
  solo_first: ["暗打头游", "solo, first"],
  solo_second: ["暗打二游", "solo, second"],
  solo_third: ["暗打三游", "solo, third"],
  solo_last: ["暗打末游", "solo, last"],
  cards_left_x2: ["剩牌 ×2", "cards left ×2"],
  cards_left_x3: ["剩牌 ×3", "cards left ×3"],
  cards_left_x4: ["剩牌 ×4", "cards left ×4"],
  bao_win: ["包牌成功", "包 won"],
  bao_lose: ["包牌失败", "包 lost"],
  fanbao_win: ["反包成功", "反包 won"],
  fanbao_fail: ["反包失败", "反包 lost"],
  shuangfei: ["双飞", "both out first (双飞)"],
  more_cards: ["得牌多", "more cards won"],
  dou: ["豆附加分", "bonus: four of a kind (豆)"],
  dou_twos: ["2222附加分", "bonus: four twos"],
  guntong: ["滚筒附加分", "bonus: run of triples (滚筒)"],
  gunlong: ["天牌滚龙", "dealt a 滚龙"],
  shisanlan: ["天牌十三烂", "dealt a 十三烂"],
};
// Per-seat numbers and facts a game adds to its view, by key.
const EXTRAS = {
  lost: ["累计输牌", "cards lost"],
  limit: ["上限", "limit"],
  openness: ["明暗", "sides shown"],
  spade_three: ["♠3 打出者", "played ♠3"],
  spade_ace: ["♠A 打出者", "played ♠A"],
  points: ["得分", "points"],
  captured: ["得牌", "cards won"],
  trick_cards: ["本轮牌数", "cards this round"],
  dealer: ["庄家", "dealer"],
  bids: ["发言", "bids"],
  bao: ["包牌", "bid alone"],
  fanbao: ["反包", "counter-bid"],
  called_card: ["叫的牌", "called card"],
  partner: ["朋友", "partner"],
  bonus_lines: ["附加分", "bonuses"],
};
// Seats a game's view names by key, shown as a badge on that seat.
const ROLES = {
  dealer: ["庄", "Dealer"],
  partner: ["朋友", "Partner"],
};
// A seat's word in an auction: the button, and the badge that shows it afterwards. A pass after
// somebody has bid declines to answer that bid ("pass_answer").
const BIDS = {
  bao: { button: ["包", "Bid alone (包)"], badge: ["包", "Alone"] },
  fanbao: { button: ["反包", "Counter-bid (反包)"], badge: ["反包", "Counter"] },
  pass: { button: ["不包", "No bid (不包)"], badge: ["不包", "No bid"] },
  pass_answer: { button: ["不反包", "No counter (不反包)"], badge: ["不反包", "No counter"] },
};
const OPENNESS = {
  hidden: ["暗打（未亮明）", "hidden"],
  half_open: ["半明打", "half open"],
  open: ["全明打", "open"],
};
// What the centre of the table says in a phase where a seat speaks rather than plays cards: to
// the seat to move, and to everyone else (the play phase has its own lines).
const TURN_LINES = {
  bid: ["yourWord", "theirWord"],
  call: ["yourCall", "theirCall"],
};
const PHASES = {
  commit: ["准备发牌", "before the deal"],
  seeding: ["洗牌中", "shuffling"],
  bid: ["叫牌/包牌阶段", "bidding"],
  call: ["庄家叫牌", "the dealer calls a card"],
  play: ["出牌中", "playing"],
  reveal: ["本局结束", "hand over"],
  over: ["比赛结束", "match over"],
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

export const kindName = (kind) => pick(KINDS[kind], kind);
export const reasonName = (reason) => pick(REASONS[reason], reason);
export const extraName = (key) => pick(EXTRAS[key], key);
export const opennessName = (value) => pick(OPENNESS[value], value);
export const phaseName = (phase) => pick(PHASES[phase], phase);
/** The centre line for the seat to move in `phase` (`mine`: it is you), or null. */
export function turnLine(phase, mine, name) {
  const keys = TURN_LINES[phase];
  return keys ? t(keys[mine ? 0 : 1], { name }) : null;
}
export const roleName = (key) => pick(ROLES[key], key);
export const roles = () => Object.keys(ROLES);

/** A bid's name: `answering` when an earlier bid was not a pass (a pass then declines it);
 * `form` is "button" (what to say) or "badge" (what was said). */
export function bidName(bid, { answering = false, form = "badge" } = {}) {
  const key = bid === "pass" && answering ? "pass_answer" : bid;
  return pick(BIDS[key]?.[form], bid);
}

/** Whether a bid in `bids` ([[seat, bid], …]) before index `i` was more than a pass. */
export function answering(bids, i = bids?.length ?? 0) {
  return (bids ?? []).slice(0, i).some(([, bid]) => bid !== "pass");
}

document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
