// Names of the engine's numbered values, as the frames carry them. Each list
// mirrors one in the Go sources and, like it, only ever grows at the end.

// rules/role.go: Role. An extra_cards event carries its second card as a number.
export const ROLES = ['none', 'werewolf', 'white_wolf_king', 'wolf_beauty', 'wolf_king', 'villager', 'seer',
  'witch', 'hunter', 'guard', 'idiot', 'nine_tailed_fox', 'elder', 'scapegoat', 'cupid', 'thief',
  'little_girl', 'piper', 'knight', 'gravekeeper', 'psychic', 'witch_hunter', 'dreamcatcher', 'crow', 'magician',
  'gargoyle', 'spirit_knight', 'nightmare', 'blood_moon', 'hidden_wolf', 'possessed', 'wild_child',
  'silence_elder', 'vote_ban_elder', 'bear_tamer', 'pure_white', 'wolf_witch',
  'mirror_seer', 'sister', 'brother', 'angel', 'mixed_blood', 'cursed_fox',
  'mechanical_wolf', 'eclipse_wolf_queen', 'sequence_prince', 'dancer', 'masquerade', 'ghost_bride', 'warden', 'miracle_merchant'];

// rules/role.go: Camp (game_over and camp_lost carry one as value).
export const CAMPS = ['none', 'village', 'wolves', 'lovers', 'piper', 'draw', 'angel', 'fox', 'newlyweds'];

// rules/event.go: Cause (a death's value).
export const CAUSES = ['none', 'attack', 'poison', 'exile', 'shot', 'explode', 'taken', 'charm', 'tails',
  'love', 'scapegoat', 'red_card', 'elder', 'duel', 'hunt', 'dream', 'reflect', 'purify', 'checked',
  'dance', 'trade', 'merchant'];

// rules/event.go: the results of a check under seer_sees = wolf_or_not / village_or_not.
export const CHECK_RESULTS = ['good', 'wolf', 'not_village'];

// rules/newmoon.go: the event cards.
export const EVENT_CARDS = { 1: 'wolf_ally' };

// rules/command.go: the kinds of claim (a claim's value).
export const CLAIMS = { 1: 'role', 2: 'wolf', 3: 'good' };

// rules/game.go: Step.
export const STEPS = ['none', 'elect', 'elect_pk', 'night', 'witch', 'signup', 'campaign', 'withdraw',
  'sheriff_vote', 'sheriff_pk', 'sheriff_pk_vote', 'dawn', 'order', 'speech', 'discussion', 'vote', 'pk',
  'pk_vote', 'skill', 'badge', 'last_words', 'dusk', 'over', 'thief', 'cupid', 'voters', 'ally', 'seq_vote',
  'mob_vote', 'night_shot', 'nightmare', 'magician', 'check',
  'eclipse', 'rewind', 'masquerade', 'bride', 'merchant', 'lucky', 'warden', 'trade'];

// Steps whose ballots are collected into a vote result.
export const VOTE_STEPS = new Set(['elect', 'elect_pk', 'sheriff_vote', 'sheriff_pk_vote', 'vote', 'pk_vote',
  'seq_vote', 'mob_vote']);

// The exile votes, where the sheriff's ballot weighs more (rules/flow.go weight).
export const EXILE_VOTES = new Set(['vote', 'pk_vote', 'seq_vote', 'mob_vote']);

// Votes whose ballots are public as they are cast.
export const OPEN_VOTES = new Set(['seq_vote', 'mob_vote']);

// Steps in which one seat has the floor (rules/game.go Step.turn).
export const TURN_STEPS = new Set(['campaign', 'sheriff_pk', 'order', 'speech', 'pk', 'skill', 'badge',
  'last_words', 'voters', 'ally', 'mob_vote']);

// Steps told to the woken seat alone, whose name says what his card is: a
// hunter's or wolf king's shot inside the night (night_shot=in_night).
// The nightmare's, the eclipse wolf queen's and the magician's stages are told to their seat alone too,
// and the checkers' after the witch (night_order=wolves_first), the ghost
// bride's on night 1, and the merchant's, the lucky one's, the warden's and
// the traders' (ROLES-MORE-2.md).
export const PRIVATE_STEPS = new Set(['night_shot', 'nightmare', 'magician', 'check', 'eclipse', 'masquerade', 'bride', 'merchant', 'lucky', 'warden', 'trade']);

// Steps in which the seat with the floor speaks.
export const SPEECH_STEPS = new Set(['campaign', 'sheriff_pk', 'speech', 'pk', 'last_words', 'discussion']);

// internal/game/clock.go: the timers and their defaults, in seconds. The
// server tells no defaults, and the create page sends only the timers changed
// from these: internal/game/clock_test.go fails when they differ from Go's.
export const TIMERS = [['setup', 20], ['night', 40], ['witch', 20], ['speech', 90], ['vote', 20], ['other', 20],
  ['bot', 1.5]];

// The pace presets of the create page (issue 23), in seconds per timer: a
// room's clocks unless a timer is given. The server holds the same table
// (internal/game/clock.go, POST /api/rooms "pace"; pace.test.js holds them
// equal); here they only show as each field's value when
// left empty. Table and pass-and-play rooms start quick, online rooms
// standard.
export const PACES = {
  quick: { setup: 15, night: 25, witch: 15, speech: 60, vote: 15, other: 15, bot: 1.5 },
  standard: { setup: 20, night: 40, witch: 20, speech: 90, vote: 20, other: 20, bot: 1.5 },
  relaxed: { setup: 30, night: 60, witch: 30, speech: 120, vote: 30, other: 30, bot: 1.5 },
  // 版杀 over days (docs/server.md "Forum pace"): a night of 12 hours, a day's discussion of 20 and its vote of 4
  forum: { setup: 7200, night: 32400, witch: 10800, speech: 72000, vote: 14400, other: 7200, bot: 1.5 },
};

// The longest a step's timer may be, in seconds (game.MaxPhase); the bot's
// pause stays within an hour (game.MaxTimer).
export const MAX_PHASE = 72 * 3600;
export const PACE_DEFAULT = { table: 'quick', online: 'standard' };

// internal/game/chat.go: the chat channels, in the order of their tabs.
export const CHANNELS = ['day', 'wolves', 'lovers', 'dead', 'siblings', 'newlyweds'];

// The wolves' cards (rules/role.go: camp wolves).
export const WOLF_ROLES = new Set(['werewolf', 'white_wolf_king', 'wolf_beauty', 'wolf_king', 'gargoyle', 'spirit_knight',
  'nightmare', 'blood_moon', 'hidden_wolf', 'possessed', 'wolf_witch', 'mechanical_wolf', 'eclipse_wolf_queen', 'masquerade', 'warden']);

// rules/command.go: CmdKind, the commands a state's choices name.
export const COMMANDS = ['none', 'attack', 'heal', 'poison', 'protect', 'check', 'shoot', 'vote', 'abstain', 'run',
  'withdraw', 'badge', 'tear', 'explode', 'charm', 'skip', 'order', 'take', 'link', 'voters', 'ally', 'claim', 'duel',
  'curse', 'dream', 'swap', 'hunt', 'fear', 'model', 'silence', 'ban',
  'imitate', 'double', 'shelter', 'rewind', 'dance', 'ask', 'mask', 'groom', 'witness', 'pair', 'trade', 'betray', 'gift_check', 'gift_poison', 'gift_shield'];

// rules/event.go: EventKind.
export const EVENTS = ['none', 'game_start', 'role', 'wolf_team', 'night', 'day', 'step', 'protect', 'check',
  'attack_pick', 'attack', 'charm', 'witch_told', 'heal', 'poison', 'skip', 'death', 'dawn', 'tails', 'run', 'withdraw',
  'ballot', 'vote_result', 'sheriff', 'badge', 'order', 'exile', 'reveal', 'explode', 'shoot', 'no_shot', 'task',
  'resume', 'game_over', 'extra_cards', 'swap', 'lovers', 'lover_role', 'black_lovers', 'spy', 'enchant', 'charmed',
  'elder_life', 'powers_lost', 'voters', 'event_card', 'ally', 'attack_result', 'feedback', 'red_card', 'camp_lost',
  'kill_power', 'claim', 'duel', 'grave', 'curse', 'cursed_vote', 'dream', 'magic', 'hunt', 'fear', 'feared',
  'no_attack', 'reflect', 'model', 'wild_wolf', 'blood_moon', 'silence', 'vote_ban', 'silenced', 'vote_banned',
  'growl', 'siblings', 'angel_wins', 'mirror', 'blood',
  'imitate', 'double_attack', 'shelter', 'rewind', 'dance', 'ask', 'mask', 'groom', 'witness', 'wed', 'pair', 'traders', 'trade_choice', 'trade_result', 'gift', 'lucky', 'gift_use'];

// Roles a board may hold more than once (docs/rules.md).
export const REPEATABLE = new Set(['werewolf', 'villager', 'sister', 'brother']);
