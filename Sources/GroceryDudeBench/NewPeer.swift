import Foundation
import GroceryModel
import Ubiquity

/// A new peer joining a store with a long history: one peer saves `live` items and then edits
/// them until its logs hold 100 property changes per item, writes a baseline, and a new peer
/// imports (the baseline, no log). Next to it, the floor a user has without sync: the same
/// items loaded from the app's JSON export into an empty store (`import FILE`). The baseline's
/// size is compared with the export's.
///
/// Each side is timed ``rounds`` times, taking turns (a new joiner, then a new empty store), and
/// the ratio is of their medians: a single join and a single load, each about 200 ms, gave
/// ratios from 0.87 to 1.41 within ten minutes on this machine (docs/decisions/0182).
enum NewPeer {
    static let rounds = 5

    static func run(folder: URL, live: Int) throws {
        let history = live * 100  // 1M property changes for 10k items
        let (source, sourceSync) = try GroceryDudeBench.peer(folder, "source")
        let perSave = 2500
        var written = 0
        var made = 0
        while made < live {
            let count = min(perSave, live - made)
            try source.objects.save(author: "bench") { context in
                for index in made..<(made + count) {
                    try context.insert(
                        GrocerySchema.Entity.item,
                        values: [
                            "name": .string("Item \(index)"), "quantity": .double(1), "listed": .bool(index % 3 == 0),
                        ])
                }
            }
            made += count
        }
        let properties = GrocerySchema.definition.versions.last!.schema.entity(named: "Item")!.propertyNames.count
        written += live * properties
        try sourceSync.exportPending()
        // Edits: every item's quantity and shopping-list mark, round after round (each edit also
        // sets the modification date: three property changes).
        let ids = try source.objects.read { db in try GlobalID.fetchAll(db, sql: "SELECT id FROM item") }
        var round = 0
        while written < history {
            round += 1
            for start in stride(from: 0, to: ids.count, by: perSave) {
                try source.objects.save(author: "bench") { context in
                    for id in ids[start..<min(ids.count, start + perSave)] {
                        try context.update(
                            GrocerySchema.Entity.item, id: id,
                            values: [
                                "quantity": .double(Double(round + 1)), "listed": .bool(round % 2 == 0),
                            ])
                    }
                }
                written += min(perSave, ids.count - start) * 3
                if written >= history { break }
            }
            try sourceSync.exportPending()
        }
        guard let baseline = try sourceSync.writeBaseline() else { throw BenchFailure("no baseline written") }
        let baselineBytes = try FileManager.default.attributesOfItem(atPath: baseline.path)[.size] as? Int ?? 0

        let exportURL = folder.appendingPathComponent("export.json")
        try ArchiveFormat.json.write(try source.exportArchive()).write(to: exportURL)
        let exportBytes = try FileManager.default.attributesOfItem(atPath: exportURL.path)[.size] as? Int ?? 0

        var joinTimes: [Double] = []
        var directTimes: [Double] = []
        for round in 0..<rounds {
            let (joiner, joinerSync) = try GroceryDudeBench.peer(folder, "joiner-\(round)")
            var started = GroceryDudeBench.now()
            let report = try joinerSync.importPending()
            joinTimes.append(GroceryDudeBench.now() - started)
            let joined = try joiner.objects.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
            guard joined == live, report.loadedBaselines == 1 else {
                throw BenchFailure(
                    "the new peer holds \(joined) items from \(report.loadedBaselines) baselines, not \(live) from one")
            }

            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("direct-\(round)"), withIntermediateDirectories: true)
            let direct = try GroceryStore(
                path: folder.appendingPathComponent("direct-\(round)/store.sqlite").path, defaultData: false)
            started = GroceryDudeBench.now()
            try direct.importFile(path: exportURL.path)
            directTimes.append(GroceryDudeBench.now() - started)
        }
        let joinSeconds = GroceryDudeBench.percentile(joinTimes, 0.5)
        let directSeconds = GroceryDudeBench.percentile(directTimes, 0.5)

        BenchReport.record(
            "new_peer",
            [
                "ratio": joinSeconds / directSeconds, "join_ms": joinSeconds * 1000,
                "direct_load_ms": directSeconds * 1000, "baseline_bytes": Double(baselineBytes),
                "export_bytes": Double(exportBytes), "history_changes": Double(written), "live_items": Double(live),
                "rounds": Double(rounds),
            ],
            digits: 2,
            line: String(
                format:
                    "new peer, %d property changes of history, %d items live, medians of %d: joining (baseline) %.0f ms; loading the JSON export into an empty store %.0f ms; ratio %.2f (target ≤ 1.0); baseline %.1f MB, export %.1f MB, %.2f× (target ≤ 1.5)",
                written, live, rounds, joinSeconds * 1000, directSeconds * 1000, joinSeconds / directSeconds,
                Double(baselineBytes) / 1e6, Double(exportBytes) / 1e6, Double(baselineBytes) / Double(exportBytes)))
    }
}
