import Foundation

/// RFC 4180 CSV: fields separated by commas, quoted with `"` when they hold a comma, a quote
/// or a line break, quotes doubled inside; rows end with CRLF or LF.
public enum CSVTable {
    /// A file of the project's CSV kinds read into records: a header of known column names,
    /// then a row per record, each as its non-empty cells by column name, with its line number.
    /// A byte-order mark is skipped and blank lines are not records.
    ///
    /// - Throws: ``ArchiveError/malformed(_:)`` for text that is not UTF-8, an empty file, a
    ///   header lacking a `required` column, naming an unknown one or one twice, or a row whose
    ///   field count is not the header's — naming the line.
    static func records(_ data: Data, columns: [String], required: [String]) throws -> [(
        line: Int, cells: [String: String]
    )] {
        let text = try UTF8Text.decode(data)
        let rows = try parse(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        guard let header = rows.first else { throw ArchiveError.malformed("the file is empty") }
        let names = header.map { $0.trimmingCharacters(in: .whitespaces) }
        for column in required where !names.contains(column) {
            throw ArchiveError.malformed("line 1: the header has no \(column.debugDescription) column")
        }
        if let unknown = names.first(where: { !columns.contains($0) }) {
            throw ArchiveError.malformed(
                "line 1: unknown column \(unknown.debugDescription); columns are \(columns.joined(separator: ","))")
        }
        if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw ArchiveError.malformed("line 1: the column \(twice.debugDescription) appears twice")
        }
        var records: [(line: Int, cells: [String: String])] = []
        for (offset, row) in rows.dropFirst().enumerated() {
            let line = offset + 2
            if row == [""] { continue }  // a blank line
            guard row.count == names.count else {
                throw ArchiveError.malformed("line \(line): \(row.count) fields, the header has \(names.count)")
            }
            var cells: [String: String] = [:]
            for (name, value) in zip(names, row) where !value.isEmpty { cells[name] = value }
            records.append((line, cells))
        }
        return records
    }

    /// Parses CSV text into rows of fields.
    ///
    /// - Throws: ``ArchiveError/malformed(_:)`` for an unterminated quote or text after a
    ///   closing quote, naming the line.
    public static func parse(_ text: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var afterQuote = false
        var line = 1
        var quoteLine = 1
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil

        func endField() {
            row.append(field)
            field = ""
            afterQuote = false
        }
        func endRow() {
            endField()
            rows.append(row)
            row = []
        }

        while let scalar = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if scalar == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" {
                            field.unicodeScalars.append("\"")
                        } else {
                            inQuotes = false
                            afterQuote = true
                            pending = next
                        }
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                endField()
            case "\r":
                if let next = iterator.next(), next != "\n" { pending = next }
                endRow()
                line += 1
            case "\n":
                endRow()
                line += 1
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
                quoteLine = line
            default:
                if afterQuote {
                    throw ArchiveError.malformed("line \(line): text after a closing quote")
                }
                field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes {
            throw ArchiveError.malformed("line \(quoteLine): a quoted field is never closed (truncated file?)")
        }
        if !field.isEmpty || !row.isEmpty || afterQuote { endRow() }
        return rows
    }

    /// Writes rows as CSV, quoting only the fields that need it, with CRLF line ends.
    public static func write(_ rows: [[String]]) -> String {
        rows.map { $0.map(quote).joined(separator: ",") + "\r\n" }.joined()
    }

    static func quote(_ field: String) -> String {
        let needsQuotes =
            field.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || field.hasPrefix(" ") || field.hasSuffix(" ")
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
