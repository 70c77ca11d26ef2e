package rules

// The white wolf king (白狼王) may take one other living player with him when
// he self-explodes (explode); neither has last words nor passes a badge.

func init() {
	hooks[WhiteWolfKing] = roleHooks{explodeTakes: true}
}
