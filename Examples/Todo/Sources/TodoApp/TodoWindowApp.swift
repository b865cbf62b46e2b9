#if canImport(SwiftUI)
import SQLiteStore
import SwiftUI

#if os(macOS)
import AppKit
#endif

/// The entry point on Apple platforms: the SwiftUI app. Its database lives in Application
/// Support; it syncs when launched with `--server URL --token TOKEN` (or `TODO_SERVER` and
/// `TODO_TOKEN` in the scheme's environment).
@main
struct TodoWindowApp: App {
    @State private var launch = AppLaunch()

    init() {
        #if os(macOS)
        // A package's executable starts as a background process; a window app comes to the front.
        NSApplication.shared.setActivationPolicy(.regular)
        #endif
    }

    var body: some Scene {
        WindowGroup {
            switch launch.outcome {
            case .success(let session):
                ItemsView(screen: session.screen, sync: session.sync)
                    .environment(\.store, session.store)
            case .failure(let error):
                Text("The to-do list could not open: \(String(describing: error))")
                    .padding()
            }
        }
    }
}

/// The app's session, opened once at launch, or why it could not open.
@MainActor
@Observable
final class AppLaunch {
    let outcome: Result<AppSession, any Error>

    init() {
        outcome = Result {
            let options = try LaunchOptions(
                arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
            return try AppSession(options: options, defaultPath: AppSession.applicationSupportPath)
        }
    }
}
#endif
