import TerminalUI

/// The parts of the manual page that the argument parser cannot write: what the app is, its
/// keys (from the in-app help), its environment, its files and examples. Each part is in
/// mdoc, after a comment line saying where it goes in the generated page, which the Makefile's
/// manual rule reads (`scripts/splice-manual.awk`):
///
///     .\" grocery-dude manual: into DESCRIPTION      at the start of that section
///     .\" grocery-dude manual: before EXIT STATUS    before that section, or at the end
enum ManualSections {
    static var text: String {
        [
            part("into DESCRIPTION", description),
            part("before EXIT STATUS", keys),
            part("before EXIT STATUS", environment),
            part("before EXIT STATUS", files),
            part("before SEE ALSO", examples),
        ].joined()
    }

    private static func part(_ place: String, _ lines: [String]) -> String {
        ([".\\\" grocery-dude manual: \(place)"] + lines).joined(separator: "\n") + "\n"
    }

    // MARK: - DESCRIPTION

    static let description: [String] = [
        Roff.text(
            "A grocery list for the terminal, after the app of Learning Core Data for iOS: items with a quantity, "
                + "a unit, where they are kept at home and where they are found in the shop, put on the shopping "
                + "list while preparing and ticked off while shopping. It runs as a full-screen app, or as one "
                + "command at a time from scripts. Every device (--device) keeps its own store, and devices sync "
                + "through a shared cloud folder (--cloud: a folder that Syncthing, Dropbox or NFS shares, or one "
                + "folder on one machine) of immutable transaction logs, as Core Data's SQLite store synced "
                + "through iCloud: each device writes only its own logs and merges everyone's, property by "
                + "property, so devices that worked apart, offline or with wrong clocks end with the same data."),
        ".Pp",
    ]

    // MARK: - SCREENS AND KEYS

    /// The in-app help (`?`), section by section, in its own words.
    static var keys: [String] {
        var lines = [
            ".Sh SCREENS AND KEYS",
            Roff.text(
                "The app has six screens, switched with 1 to 6 or Tab and Shift-Tab: Prepare (every item by home "
                    + "location; Space puts it on the shopping list or takes it off), Shop (what is listed, by aisle; "
                    + "Space ticks it as collected), Units, Home locations, Aisles, and Cloud (sync, account, "
                    + "what other devices did). ? or F1 shows these keys over the screen, the current screen's first."),
        ]
        for section in KeyHelp.sections {
            lines += [".Ss \(Roff.text(section.title))", ".Bl -tag -width 18n -compact"]
            for key in section.keys {
                lines += [".It Sy \(Roff.argument(key.keys))", Roff.text(key.action)]
            }
            lines.append(".El")
        }
        return lines
    }

    // MARK: - ENVIRONMENT

    /// Every variable the program reads, with the option it stands for (an option given on the
    /// command line wins).
    static let variables: [(name: String, what: String)] = [
        ("GROCERY_DUDE_DEVICE", "The device to act as (--device). Default: the host name, up to its first period."),
        (
            "GROCERY_DUDE_DATA_DIR",
            "Where devices keep their stores (--data-dir). Default: $XDG_DATA_HOME/grocery-dude."
        ),
        ("GROCERY_DUDE_CLOUD", "The shared cloud folder (--cloud). Default: <data-dir>/Cloud."),
        ("GROCERY_DUDE_LIST", "The list to act on, by its name or store name (--list). Default: the default list."),
        (
            "GROCERY_DUDE_PERSON",
            "The person this command's changes are named as (person set names the device's). Default: the device's."
        ),
        (
            "GROCERY_DUDE_LOG_LEVEL",
            "trace, debug, info, notice, warning, error or critical (--log-level). Default: info."
        ),
        (
            "GROCERY_DUDE_STORE_NAME",
            "The store's name, without periods (--store-name). Default: GroceryDude, the default list's."
        ),
        (
            "GROCERY_DUDE_MODEL_VERSION",
            "Run as an older model version, 1 or 2, to try version siloing (--model-version). Default: the newest."
        ),
        ("GROCERY_DUDE_NO_DEFAULT_DATA", "1: new stores start empty instead of with the default groceries."),
        ("GROCERY_DUDE_NO_MOUSE", "1: the full-screen app leaves the mouse to the terminal (--no-mouse)."),
        (
            "GROCERY_DUDE_FAULT",
            "For testing only: makes the program fail at a named point, to test recovery. Leave it unset."
        ),
        (
            "GROCERY_DUDE_IDLE_FILE",
            "For testing only: a file the full-screen app rewrites whenever it is idle (the keys it has handled, then the frame it drew)."
        ),
        (
            "GROCERY_DUDE_LISTING_TRUST_SECONDS",
            "For testing only: how old a cloud folder must be before its listing is trusted. Default: 2."
        ),
        ("XDG_DATA_HOME", "The base of the default data folder. Default: ~/.local/share."),
        ("NO_COLOR", "Set and not empty: the full-screen app draws without colours."),
        ("TERM", "The terminal's type, for the full-screen app (ncurses)."),
    ]

    static var environment: [String] {
        var lines = [".Sh ENVIRONMENT", ".Bl -tag -width Ds"]
        for variable in variables { lines += [".It Ev \(variable.name)", Roff.text(variable.what)] }
        return lines + [".El"]
    }

    // MARK: - FILES

    static let files: [String] = [
        ".Sh FILES",
        Roff.text(
            "<data-dir> is --data-dir, else $GROCERY_DUDE_DATA_DIR, else $XDG_DATA_HOME/grocery-dude "
                + "(~/.local/share/grocery-dude). Each device has a folder of its own:"),
        ".Bl -tag -width Ds",
        path("<data-dir>/devices/<device>/"),
        Roff.text("The device's sandbox, which holds the files below."),
        path("local/<store>.sqlite"),
        Roff.text(
            "The device's local store (SQLite, with its -wal file while in use), used while cloud sync is off. "
                + "<store> is GroceryDude for the default list, the list's store name for the others."),
        path("ubiquity/<account>/<store>/store.sqlite"),
        Roff.text(
            "Its store of the account's cloud content; fallback.sqlite beside it stands in until that store is "
                + "set up, and kept/ holds stores moved aside (start over, rebuild), never deleted."),
        path("settings.json"),
        Roff.text("The account it is signed in to, whether cloud sync is on, offline, the cloud folder's IDs."),
        path("lists.json"),
        Roff.text(
            "The device's lists: their names, store names, who made them; kept up to date with what other "
                + "devices announce, and read by shell completion."),
        path("device.json"),
        Roff.text("The device's peer ID."),
        path("device.lock"),
        Roff.text("Held by the running full-screen app (its pid and command inside)."),
        path("transitions.jsonl"),
        Roff.text("Every store transition (listed by cloud status)."),
        path("grocery-dude.log"),
        Roff.text("The log: nothing is printed over the screen. --log-level says how much."),
        path("removed-lists/"),
        Roff.text("This device's stores of removed lists."),
        path("<data-dir>/replaced-devices/"),
        Roff.text("A device's folder as it was before a restore."),
        ".El",
        ".Pp",
        Roff.text(
            "The cloud folder, <cloud>, is --cloud, else $GROCERY_DUDE_CLOUD, else <data-dir>/Cloud; <account> is "
                + "the account the device is signed in to (default: default). Every device writes only in folders "
                + "of its own, named after its peer ID; files are never changed once they appear:"),
        ".Bl -tag -width Ds",
        path("<cloud>/<account>/<store>/v<model version>/epoch-<n>/logs/<peer>/<n>.gdlog"),
        Roff.text("The transaction logs each device publishes, one per save."),
        path(".../epoch-<n>/baselines/<peer>/<n>.gdbase"),
        Roff.text("Baselines: a device's whole store, so that others can start from it and old logs can go."),
        path(".../epoch-<n>/blobs/"),
        Roff.text("Photos, by their hash."),
        path(".../epoch-<n>/refusals/<peer>/"),
        Roff.text("Notices to a device that one of its logs was refused."),
        path("<cloud>/<account>/kv/<peer>/<n>.gdkv"),
        Roff.text("The account's synced key-value store (the lists' names, among others)."),
        path("<cloud>/<account>/folder-ids/<peer>.gdfolder"),
        Roff.text(
            "The cloud folder's identity, as each device knows it: a share that is not mounted is not taken for it."),
        path("<cloud>/<account>/<store>.claims/<peer>/<n>.gdclaim"),
        Roff.text("Claims (item claim, item unclaim): they expire, judged by each reader's clock."),
        path("<cloud>/<account>/<store>.presence/<peer>/<n>.gdpresence"),
        Roff.text("Who is shopping where (shopping start, the app's Shop screen): they expire the same way."),
        ".El",
    ]

    private static func path(_ path: String) -> String { ".It Pa \(Roff.text(path))" }

    // MARK: - EXAMPLES

    static let examples: [String] =
        [".Sh EXAMPLES"]
        + example(
            "Open the app as this machine's device, with the default groceries (? shows the keys):",
            ["grocery-dude"])
        + example(
            "Two devices sharing one cloud folder, in two terminals: turn cloud sync on for each, then open "
                + "both; an item added in one appears in the other within a second:",
            [
                "grocery-dude --device kitchen cloud enable --no-merge",
                "grocery-dude --device phone cloud enable --no-merge",
                "grocery-dude --device kitchen        # terminal 1",
                "grocery-dude --device phone          # terminal 2",
            ])
        + example(
            "On two machines, point both at a folder that Syncthing, Dropbox or NFS shares:",
            ["export GROCERY_DUDE_CLOUD=~/Sync/grocery-dude", "grocery-dude cloud enable --merge"])
        + example(
            "Add an item, put it on the list, and list what is to buy:",
            [
                "grocery-dude item add Milk --qty 2 --unit L --home-location Fridge --shop-location Dairy",
                "grocery-dude item list Bread",
                "grocery-dude item ls --listed",
            ])
        + example(
            "A second list, used with --list:",
            [
                "grocery-dude lists new \"Week-end at Anna's\"",
                "grocery-dude --list \"week-end at anna's\" item add \"Party hats\"",
                "grocery-dude lists ls",
            ])
        + example(
            "Export everything as CSV, and import it on another device (importing twice adds nothing):",
            ["grocery-dude export --output groceries.csv", "grocery-dude --device phone import groceries.csv"])
        + example(
            "See where sync stands, and stay in sync from a terminal, a line for each change, until Ctrl-C:",
            ["grocery-dude cloud status", "grocery-dude cloud watch"])
        + example(
            "Back a device up, and put the backup back:",
            ["grocery-dude backup ~/backups/kitchen", "grocery-dude restore ~/backups/kitchen"])

    private static func example(_ what: String, _ commands: [String]) -> [String] {
        [".Pp", Roff.text(what), ".Bd -literal -offset indent"] + commands.map(Roff.text) + [".Ed"]
    }
}
