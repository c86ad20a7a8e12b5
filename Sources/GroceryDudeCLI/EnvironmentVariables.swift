import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's environment, read one variable at a time with `getenv`. Foundation's
/// `ProcessInfo.environment` builds a dictionary of every variable at each call (the first
/// one costing 6 % of a command's start-up, measured with perf), and a command reads a few.
struct EnvironmentVariables {
    subscript(name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
