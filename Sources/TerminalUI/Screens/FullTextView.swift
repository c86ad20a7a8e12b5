import Foundation
import ViewModels

/// What the screen cuts with "…", in full (`m`): the latest messages, newest first, the store's
/// recent transitions and the status line, each wrapped to the box's width. It scrolls as the help does.
enum FullTextView {
    static let title = "Messages and transitions"

    static func lines(_ controller: AppController, width: Int) -> [(String, CellStyle)] {
        var lines: [(String, CellStyle)] = [("Messages, newest first", CellStyle(bold: true, color: .section))]
        /// `lead` (when) and `text`, wrapped; the lines after the first indented.
        func add(_ lead: String, _ text: String) { lines += ScrollingBox.wrapped(lead + text, screen: width) }
        // A message knows its age (by the uptime, which never goes back); the app's clock says
        // what time that was.
        let uptime = Message.now
        let now = controller.app.now
        for message in controller.ui.messageLog.reversed() {
            add(CloudView.time(now.addingTimeInterval(message.made - uptime)) + "  ", message.text)
        }
        if controller.ui.messageLog.isEmpty { lines.append(("none yet", CellStyle(dim: true))) }
        lines.append(("", .plain))
        lines.append(("Recent transitions", CellStyle(bold: true, color: .section)))
        let transitions = controller.app.cloud.recentTransitions
        for line in transitions.prefix(10) { add(line.when + "  ", line.what) }
        if transitions.isEmpty { lines.append(("none", CellStyle(dim: true))) }
        lines.append(("", .plain))
        lines.append(("Status", CellStyle(bold: true, color: .section)))
        add("", AppScreen.statusText(controller.app.summary))
        return lines
    }

    static func maximumScroll(_ controller: AppController, width: Int, height: Int) -> Int {
        ScrollingBox.maximumScroll(height: height, total: lines(controller, width: width).count)
    }

    static func draw(_ controller: AppController, scroll: Int, into screen: inout ScreenBuffer) {
        ScrollingBox.draw(title: title, lines: lines(controller, width: screen.width), scroll: scroll, into: &screen)
    }
}
