// swift-tools-version: 6.1
import PackageDescription

/// The screens' and commands' targets may use only what the modules they import declare
/// (docs/decisions/0081, 0087, 0089): a member of the engine, reached through a model or device value,
/// needs `import Ubiquity`, which these targets do not have — so the compiler refuses any
/// engine value that slips up through the model's or the device layer's API.
let upperLayerSettings: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "GroceryDude",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "grocery-dude", targets: ["GroceryDude"]),
        .executable(name: "grocery-dude-bench", targets: ["GroceryDudeBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // MARK: - System libraries

        /// ncursesw, with the wide-character API (`NCURSES_WIDECHAR`).
        .systemLibrary(
            name: "CNCurses",
            path: "Sources/CNCurses",
            providers: [.apt(["libncursesw5-dev"])]
        ),
        /// SQLite's pre-update hook, which the system SQLite has but GRDB's module does not declare:
        /// the store learns which rows each write changes, for digests (docs/decisions/0167).
        .systemLibrary(name: "CSQLitePreupdate", path: "Sources/CSQLitePreupdate"),

        // MARK: - Libraries, one job each

        /// Text and file helpers that know nothing of stores or sync: one-line error reasons,
        /// folded search text, rough durations, JSON string literals, atomic file writes, and
        /// the logger that logs nothing.
        .target(
            name: "TextAndFiles",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        /// The sync engine ("ubiquity"): declared schemas, the single save API, transaction records.
        .target(
            name: "Ubiquity",
            dependencies: [
                "TextAndFiles",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API: the SQL function called for every row (UniqueKey+SQL), the
                // background checkpoint's connection, IDs read where SQLite holds them.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLitePreupdate",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// The default data that ships with the app, embedded in the binary.
        .target(
            name: "GroceryResources",
            path: "Resources",
            exclude: ["README.md"],
            sources: ["GroceryResources.swift"],
            resources: [.embedInCode("DefaultData.json"), .embedInCode("VERSION")]
        ),
        /// Grocery Dude's model: entities, migrations, the grocery store API, import and export.
        .target(
            name: "GroceryModel",
            dependencies: [
                "Ubiquity",
                "TextAndFiles",
                "GroceryResources",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API: the item listing reads columns where SQLite holds them.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// Which store a device runs on, and every transition between stores: fallback and
        /// one-time setup, accounts, start over, disable, with their notifications.
        .target(
            name: "StoreLifecycle",
            dependencies: [
                "GroceryModel",
                "Ubiquity",
                "TextAndFiles",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// Screens' state, plain Swift, no terminal.
        .target(
            name: "ViewModels",
            dependencies: [
                "GroceryModel", "StoreLifecycle", "TextAndFiles", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upperLayerSettings
        ),
        /// The terminal: an in-memory screen buffer, rendering, and the ncurses backend.
        .target(
            name: "TerminalUI",
            dependencies: [
                "CNCurses", "ViewModels", "GroceryModel", "TextAndFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upperLayerSettings
        ),
        /// The command line: argument parsing and the commands.
        .target(
            name: "GroceryDudeCLI",
            dependencies: [
                "GroceryModel",
                "StoreLifecycle",
                "ViewModels",
                "TerminalUI",
                "TextAndFiles",
                "GroceryResources",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upperLayerSettings
        ),
        /// The thin executable.
        .executableTarget(
            name: "GroceryDude",
            dependencies: ["GroceryDudeCLI"],
            // The program's own symbols stay out of its dynamic symbol table, which the Swift
            // driver fills with all of them (13k): nothing looks them up by name, and the dynamic
            // loader searched them at every start for each symbol the C and C++ libraries bind
            // (docs/decisions/0174).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]
        ),

        /// The benchmarks (docs/benchmarks.md): commands that print figures.
        .executableTarget(
            name: "GroceryDudeBench",
            dependencies: [
                "GroceryModel", "Ubiquity", "StoreLifecycle", "ViewModels", "TerminalUI", "TextAndFiles",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: - Tests

        .target(
            name: "TestSupport",
            dependencies: ["GroceryModel", "StoreLifecycle", "Ubiquity"]
        ),
        .testTarget(name: "TextAndFilesTests", dependencies: ["TextAndFiles", "TestSupport"]),
        .testTarget(
            name: "UbiquityTests",
            dependencies: [
                "Ubiquity", "TextAndFiles", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "GroceryModelTests",
            dependencies: [
                "GroceryModel", "Ubiquity", "TextAndFiles", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "StoreLifecycleTests",
            dependencies: [
                "StoreLifecycle", "GroceryModel", "Ubiquity", "TextAndFiles", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ViewModelsTests",
            dependencies: ["ViewModels", "GroceryModel", "StoreLifecycle", "Ubiquity", "TestSupport"]
        ),
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "TerminalUI", "ViewModels", "GroceryModel", "StoreLifecycle", "Ubiquity", "TextAndFiles", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Snapshots"]  // read and recorded at their place in the source tree (#filePath)
        ),
        /// The real `grocery-dude` binary run as separate processes, devices as peers on one
        /// cloud folder, tmux for the full screen; one folder per area: Sync, Lists, FullScreen,
        /// Backup, Seeding, CommandLine.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "GroceryDudeCLI", "GroceryDude", "GroceryModel", "StoreLifecycle", "Ubiquity", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)
