// expected-error: cannot convert value of type '\(\)' to specified type '\[String\]'
// default-isolation MainActor: expected-error: cannot convert value of type '\(\)' to specified type '\[String\]'
import Foundation

final class Document {}

// Observers of a Foundation message return nothing, and `post` gives the poster nothing back.
struct TitleRequested: NotificationCenter.MainActorMessage {
    typealias Subject = Document
}

@MainActor
func titles() -> [String] {
    let titles: [String] = NotificationCenter.default.post(TitleRequested())
    return titles
}
