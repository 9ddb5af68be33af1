/// A key, or a few typed at once, as the full-screen view reads them from a terminal in raw mode.
package enum Key: Sendable, Hashable {
    /// Printable text: one character or several, typed or pasted.
    case text(String)
    /// Return: submit the line.
    case enter
    /// Backspace: delete the character before the cursor.
    case backspace
    /// Control-U: delete the whole line.
    case deleteLine
    /// Control-W: delete the word before the cursor.
    case deleteWord
    /// Control-C: end the program.
    case interrupt
    /// Control-D: end the input, as at the end of a piped file.
    case endOfInput
}
