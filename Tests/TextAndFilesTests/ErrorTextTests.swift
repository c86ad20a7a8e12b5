import Foundation
import TestSupport
import Testing
import TextAndFiles

/// One line saying why something failed: the POSIX reason when there is one, never a dump of
/// Foundation's user info.
@Suite("One-line error reasons")
struct ErrorTextTests {
    let directory = TemporaryDirectory("error-text")

    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the shelf is full" }
    }

    @Test func foundationsFileErrorsSayThePOSIXReason() {
        do {
            _ = try Data(contentsOf: directory.file("missing"))
            Issue.record("a missing file was read")
        } catch {
            #expect(ErrorText.reason(error) == "No such file or directory")
        }
        #expect(ErrorText.reason(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))) == "Permission denied")
    }

    @Test func otherErrorsSayThemselvesInOneLine() {
        #expect(ErrorText.reason(Refusal()) == "the shelf is full")
        let cocoa = ErrorText.reason(CocoaError(.fileWriteOutOfSpace))
        #expect(cocoa == CocoaError(.fileWriteOutOfSpace).localizedDescription)
        #expect(!cocoa.contains("UserInfo") && !cocoa.contains("\n"), "\(cocoa)")
    }

    @Test func aFolderThatCannotBeMadeIsNamedWithWhy() throws {
        let nested = directory.file("one/two/three")
        try FileManager.default.createFolder(at: nested)
        try FileManager.default.createFolder(at: nested)  // already there: nothing to do
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: nested.path, isDirectory: &isFolder) && isFolder.boolValue)

        try Data("a file".utf8).write(to: directory.file("file"))
        let blocked = directory.file("file/folder")
        #expect(throws: FileError.unwritable(path: blocked.path, reason: "Not a directory")) {
            try FileManager.default.createFolder(at: blocked)
        }
        #expect(
            FileError.unwritable(path: "/x", reason: "Not a directory").description
                == "cannot write to /x: Not a directory")
    }
}
