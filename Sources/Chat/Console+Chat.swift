import TerminalKit

/// The lines the chat writes, each in the style of what it is about, as the seed app colored its labels.
extension Console {
    /// Writes a line about a screen that subscribed: orange, like the seed's "Delegate has been subscribed".
    func subscribed(_ text: String) {
        line(text, style: .orange)
    }

    /// Writes a line about a message a screen received: green, like the seed's "has received message".
    func received(_ text: String) {
        line(text, style: .green)
    }

    /// Writes a line that explains what went wrong with the input: red, after `error: `.
    func error(_ text: String) {
        line("error: " + text, style: .red)
    }

    /// Writes an input line back, so that a transcript of piped input reads like a typed session.
    func echo(_ input: String) {
        line("> " + input)
    }
}
