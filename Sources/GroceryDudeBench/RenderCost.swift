import Foundation
import GroceryModel
import StoreLifecycle
import TerminalUI
import Ubiquity
import ViewModels

#if canImport(Glibc)
    import Glibc
#endif

/// A frame of Prepare at 100k items (target ≤ 2 ms) and the app's resident memory
/// (target ≤ 80 MB). Frames move the selection a page at a time, so rows are read in new
/// batches as they would be while scrolling; the refetch after a change is timed on its own.
enum RenderCost {
    static func run(folder: URL, items: Int) throws {
        // The store is filled by a child process: the memory of one 100k-object save is not the
        // app's.
        let fill = Process()
        fill.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        fill.arguments = ["render-fill", folder.path, String(items)]
        try fill.run()
        BenchInterruption.shared.started(fill)
        fill.waitUntilExit()
        guard fill.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        let coordinator = try StoreCoordinator(configuration: try configuration(folder), claimDevice: { true })
        let store = coordinator.current.store
        let app = AppModel(coordinator: coordinator)
        let controller = AppController(app: app)
        // The first screen: the first rows at once, the whole order from another thread.
        var started = GroceryDudeBench.now()
        app.prepare.refreshIfChanged()
        _ = AppScreen.frame(controller, width: 120, height: 40)
        let firstFetch = (GroceryDudeBench.now() - started) * 1000
        var wholeOrder = firstFetch
        while app.prepare.rowCount < app.prepare.totalRows {
            let events = app.mailbox.wait(timeout: 30)
            guard !events.isEmpty else { throw CocoaError(.fileReadUnknown) }  // the order never came
            for event in events { app.handle(event) }
            wholeOrder = (GroceryDudeBench.now() - started) * 1000
        }

        var frames: [Double] = []
        for frame in 0..<300 {
            controller.handle(frame % 50 == 0 ? .pageDown : .down)
            started = GroceryDudeBench.now()
            _ = AppScreen.frame(controller, width: 120, height: 40)
            frames.append((GroceryDudeBench.now() - started) * 1000)
        }
        // A change made elsewhere (another process): the UI thread starts the fetch of the
        // order, then, when it arrives through the mailbox, shows it and draws. Timed apart: the
        // UI thread's part, and how long the order took to arrive.
        var refetches: [Double] = []
        var arrivals: [Double] = []
        for round in 0..<10 {
            try store.setListed(app.prepare.selectedID!.description, round % 2 == 0)
            started = GroceryDudeBench.now()
            app.prepare.refreshIfChanged(inBackground: true)
            var onUIThread = GroceryDudeBench.now() - started
            let fetched = app.mailbox.wait(timeout: 30)
            guard !fetched.isEmpty else { throw CocoaError(.fileReadUnknown) }  // the order never came
            arrivals.append((GroceryDudeBench.now() - started) * 1000)
            let shown = GroceryDudeBench.now()
            for event in fetched { app.handle(event) }
            _ = AppScreen.frame(controller, width: 120, height: 40)
            onUIThread += GroceryDudeBench.now() - shown
            refetches.append(onUIThread * 1000)
        }
        let resident = residentMegabytes()
        BenchReport.record(
            "render",
            [
                "p50_ms": GroceryDudeBench.percentile(frames, 0.5), "p99_ms": GroceryDudeBench.percentile(frames, 0.99),
                "rss_mb": resident, "refetch_ms": GroceryDudeBench.percentile(refetches, 0.5),
                "refetch_arrival_ms": GroceryDudeBench.percentile(arrivals, 0.5),
                "first_fetch_ms": firstFetch, "whole_order_ms": wholeOrder, "items": Double(items),
            ],
            line: String(
                format:
                    "render, Prepare with %d items at 120×40: frame p50 %.3f ms, p99 %.3f ms (target ≤ 2 ms); the first screen %.0f ms (target ≤ 50 ms; the whole order there after %.0f ms); after a change made elsewhere, on the UI thread p50 %.1f ms (target ≤ 16 ms; the order fetched on another thread, arrived after p50 %.0f ms); %d rows read in all; resident memory %.0f MB (target ≤ 80 MB)",
                items, GroceryDudeBench.percentile(frames, 0.5), GroceryDudeBench.percentile(frames, 0.99), firstFetch,
                wholeOrder,
                GroceryDudeBench.percentile(refetches, 0.5), GroceryDudeBench.percentile(arrivals, 0.5),
                app.prepare.rowsRead, resident))
    }

    static func configuration(_ folder: URL) throws -> StoreConfiguration {
        let sandbox = try DeviceSandbox(dataDirectory: folder, device: "bench")
        try sandbox.prepare()
        return StoreConfiguration(
            sandbox: sandbox, cloud: folder.appendingPathComponent("Cloud"), defaultData: false,
            peer: try sandbox.peerID(), process: "bench")
    }

    /// `render-fill FOLDER N`: the device "bench" in FOLDER with N items over 40 home locations.
    static func fill(folder: URL, items: Int) throws {
        let coordinator = try StoreCoordinator(configuration: try configuration(folder), claimDevice: { true })
        _ = try coordinator.current.store.objects.save(author: "bench") { context in
            let homes = try (1...40).map {
                try context.insert(GrocerySchema.Entity.locationAtHome, values: ["storedIn": .string("Location \($0)")])
            }
            for index in 0..<items {
                try context.insert(
                    GrocerySchema.Entity.item,
                    values: [
                        "name": .string(String(format: "Item %06d", index)), "quantity": .double(1),
                        "locationAtHome": .reference(homes[index % homes.count]), "listed": .bool(index % 7 == 0),
                    ])
            }
        }
    }

    /// VmRSS from /proc/self/status.
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return .nan }
        return kilobytes / 1024
    }
}
