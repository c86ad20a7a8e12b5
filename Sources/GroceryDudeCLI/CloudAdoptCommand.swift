import ArgumentParser
import Foundation
import StoreLifecycle

extension CloudCommand {
    /// `grocery-dude cloud adopt`: make the folder at the cloud folder's path this device's cloud
    /// folder on purpose.
    struct Adopt: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "adopt",
            abstract:
                "Make the folder at the cloud folder's path this device's cloud folder, and publish this device's data there.",
            discussion: """
                A device remembers the ID of the cloud folder it synced with. A folder that holds none of \
                the IDs it remembers (a share that is not mounted, so an empty mount point; another share; \
                an older copy) is not used: the device works offline and says why. Adopt a folder only \
                when it is the one to sync through from now on: the device forgets the IDs it remembered, \
                takes this folder's (a new one when it has none), and publishes what it holds as a \
                baseline. Without --yes, asks first.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "cloud adopt")
            let configuration = try root.global.storeConfiguration(
                sandbox: sandbox, logger: logger, command: "cloud adopt")
            let settings = try DeviceSettings.load(from: sandbox)
            guard settings.cloudEnabled, let account = settings.account else {
                throw ValidationErrorMessage("cloud sync is disabled on this device: grocery-dude cloud enable")
            }
            let folder = configuration.cloud.path
            if let reason = CloudNames.missingFolderReason(configuration.cloud) { throw ValidationErrorMessage(reason) }
            guard let problem = configuration.cloudFolderProblem else {
                print(
                    "The cloud folder \(folder) is already this device's cloud folder for account \(account.debugDescription)."
                )
                return
            }
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw ValidationErrorMessage(
                        "\(problem.prefix(1).uppercased() + problem.dropFirst()).\nAdopting it makes it this device's cloud folder for good; pass --yes to do it from a script"
                    )
                }
                print(problem.prefix(1).uppercased() + problem.dropFirst() + ".")
                print(
                    "Adopt \(folder) as the cloud folder of account \(account.debugDescription) and publish this device's data there? [y/N] ",
                    terminator: "")
                fflush(nil)
                guard ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "") else {
                    throw ValidationErrorMessage("not confirmed; this device keeps working offline")
                }
            }
            try CloudFolderIdentity.adopt(configuration, account: account)
            let device = try root.global.openDevice(command: "cloud adopt")
            device.coordinator.journal(
                event: "cloudFolderAdopted", detail: "adopted \(folder) as the cloud folder of account \(account)")
            guard let sync = device.sync else {
                print(
                    "Adopted \(folder) as the cloud folder of account \(account.debugDescription); the cloud store is being set up (grocery-dude cloud status)."
                )
                return
            }
            try sync.exportPending()
            guard let baseline = try sync.writeBaseline() else {
                throw ValidationErrorMessage(
                    "adopted \(folder), but the store changed while its baseline was being made: run grocery-dude cloud baseline"
                )
            }
            print(
                "Adopted \(folder) as the cloud folder of account \(account.debugDescription); published this device's data as baseline \(baseline.lastPathComponent)."
            )
        }
    }
}
