package boardfile

import (
	"fmt"
)

// Limits on a board file's text, checked before the YAML parser sees it. The
// parser's memory grows with the square of the nesting (a 62 KB text of
// 31,000 "[" took 1.5 GB and a server with it), while a board nests three
// levels deep and holds a few dozen words.
const (
	// MaxSize bounds a board file's text, in bytes (the server's JSON bodies
	// are bounded by the same 64 KiB).
	MaxSize = 64 << 10
	// MaxDepth bounds the nesting of maps and lists, block and flow together.
	MaxDepth = 16
	// MaxItems bounds the words and symbols ([ ] { } ,) of the text, comments
	// included. It holds even where the depth scan could be misled (the scan
	// does not parse YAML), so the parse's memory stays bounded whatever the
	// text: depth cannot exceed it.
	MaxItems = 2048
)

// precheck refuses a text beyond the limits, in one pass that allocates
// nothing but the indentation stack.
func precheck(name string, data []byte) error {
	if len(data) > MaxSize {
		return fmt.Errorf("%s: %d bytes: a board file holds at most %d", name, len(data), MaxSize)
	}
	if n := countItems(data); n > MaxItems {
		return fmt.Errorf("%s: more than %d words and symbols: not a board file (a board needs a few dozen)", name, MaxItems)
	}
	if line, depth := nesting(data); depth > MaxDepth {
		return fmt.Errorf("%s:%d: nested more than %d levels deep (a board file needs 3)", name, line, MaxDepth)
	}
	return nil
}

// countItems counts words (runs of characters between blanks and flow
// symbols) and flow symbols, quoted or not: an upper bound of the YAML
// tokens, which no quoting or comment can hide.
func countItems(data []byte) int {
	n, inWord := 0, false
	for _, c := range data {
		switch c {
		case ' ', '\t', '\n', '\r':
			inWord = false
		case '[', ']', '{', '}', ',':
			n++
			inWord = false
		default:
			if !inWord {
				n++
			}
			inWord = true
		}
	}
	return n
}

// nesting estimates the deepest nesting of the text and its line: the block
// levels (indentation steps, "- " and "? " indicators, "key: " on a line)
// plus the open flow collections. Quoted text and comments do not count;
// the estimate errs towards deeper.
func nesting(data []byte) (maxLine, maxDepth int) {
	var indents []int // the block indentation columns open, rising
	flow := 0         // flow collections open
	for lineNo, start := 1, 0; start < len(data); lineNo++ {
		end := start
		for end < len(data) && data[end] != '\n' {
			end++
		}
		line := data[start:end]
		start = end + 1

		col := 0
		for col < len(line) && (line[col] == ' ' || line[col] == '\t') {
			col++
		}
		if col == len(line) || line[col] == '#' || line[col] == '\r' {
			continue // blank or a comment
		}
		block := 0
		if flow == 0 {
			for len(indents) > 0 && indents[len(indents)-1] > col {
				indents = indents[:len(indents)-1]
			}
			if len(indents) == 0 || indents[len(indents)-1] < col {
				indents = append(indents, col)
			}
			block = len(indents)
		}
		depth := block
		var quote byte
		for i := col; i < len(line); i++ {
			c := line[i]
			if quote != 0 {
				switch {
				case c == '\\' && quote == '"':
					i++
				case c == quote:
					quote = 0
				}
				continue
			}
			tokenStart := i == col || isSpace(line[i-1]) || isFlow(line[i-1])
			switch {
			case c == '#' && i > col && isSpace(line[i-1]):
				i = len(line) // a comment to the end of the line
			case (c == '"' || c == '\'') && tokenStart:
				quote = c
			case c == '[' || c == '{':
				flow++
				depth = max(depth, block+flow)
			case c == ']' || c == '}':
				flow = max(flow-1, 0)
			case (c == '-' || c == '?' || c == ':') && flow == 0 && (i+1 == len(line) || isSpace(line[i+1])):
				// a block sequence entry, a complex key or a map value
				// opens a level on this line
				block++
				depth = max(depth, block)
			}
		}
		// An open quote ends with the line here: its next lines count as
		// text outside quotes, which makes the estimate deeper but for a
		// " #" in them; MaxItems bounds what the scan can miss.
		if depth > maxDepth {
			maxLine, maxDepth = lineNo, depth
		}
	}
	return maxLine, maxDepth
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func isFlow(c byte) bool { return c == '[' || c == '{' || c == ',' || c == ':' }
