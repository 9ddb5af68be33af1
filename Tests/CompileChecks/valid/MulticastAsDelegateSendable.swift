import Multicast

nonisolated protocol UploadDelegate: AnyObject, Sendable {
    func uploadDidFinish(_ file: String) async
}

extension MulticastDelegate: UploadDelegate where Delegate == any UploadDelegate {
    func uploadDidFinish(_ file: String) async {
        await concurrently.call { await $0.uploadDidFinish(file) }
    }
}
