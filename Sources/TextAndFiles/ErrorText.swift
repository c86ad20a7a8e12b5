import Foundation

/// One line saying why something failed, without Foundation's error dumps: the POSIX reason
/// ("No such file or directory") when there is one.
public enum ErrorText {
    public static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? Error {
            let posix = underlying as NSError
            if posix.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(posix.code))) }
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        // Foundation's own errors describe themselves as dumps; ours as one line.
        if error is CocoaError || type(of: error) == NSError.self { return nsError.localizedDescription }
        return "\(error)"
    }
}
