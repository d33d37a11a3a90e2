import ArgumentParser
import Foundation
import MovieServer
import MovieServerDatabases
import TextFormatting

/// `marquee accounts`: the operator's commands for the people of a server database.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "Add, list and remove the accounts of a server database, and set their passwords.",
        discussion: """
            People can also create their own accounts on the sign-in page (/device), unless the \
            server runs with --no-sign-up. A password is typed without echo, or read from the \
            first line of standard input when it is not a terminal.
            """,
        subcommands: [AccountsAddCommand.self, AccountsListCommand.self, AccountsRemoveCommand.self, AccountsSetPasswordCommand.self, AccountsAdoptWatchlistCommand.self]
    )
}

/// The options every `accounts` subcommand shares: the database, and bcrypt's cost.
struct AccountsDatabaseOptions: ParsableArguments {
    @Option(name: .customLong("database"), help: ArgumentHelp("The server database: postgres://user@host:port/database, or a SQLite file (default: $MARQUEE_DATABASE_URL).", valueName: "url"))
    var databaseOption: String?

    @Option(name: .customLong("password-cost"), parsing: .unconditional, help: ArgumentHelp("The bcrypt cost of a new password hash.", valueName: "cost"))
    var passwordCost = Int(PasswordHasher.defaultCost)

    func validate() throws {
        try PasswordCost.check(passwordCost)
    }

    /// Runs `body` with the accounts of the database, closing it afterwards.
    func withAccounts<T>(_ body: (Accounts) async throws -> T) async throws -> T {
        try await withStorage { storage in try await body(Accounts(storage: storage, hasher: PasswordHasher(cost: UInt8(passwordCost)))) }
    }

    /// Runs `body` with the database's storage, closing it afterwards.
    func withStorage<T>(_ body: (any ServerStorage) async throws -> T) async throws -> T {
        guard let database = databaseOption ?? DatabaseArgument.fromEnvironment() else { throw CLIError.noDatabase }
        let storage = try await DatabaseLocation(parsing: database).open()
        do {
            let result = try await body(storage)
            await storage.close()
            return result
        } catch {
            await storage.close()
            throw error
        }
    }
}

struct AccountsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Create an account.")

    @Argument(help: ArgumentHelp("The account's name: letters a-z, digits, '.', '-' and '_'.", valueName: "name"))
    var name: String

    @OptionGroup var database: AccountsDatabaseOptions

    func run() async throws {
        let account = try AccountName(name)
        let password = try PasswordInput.read(purpose: "Password for \(account)")
        try await database.withAccounts { accounts in _ = try await accounts.create(name: name, password: password) }
        print("Added the account \(account).")
    }
}

struct AccountsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts, by name, with how many movies each has on its watchlist.")

    @OptionGroup var database: AccountsDatabaseOptions

    func run() async throws {
        let listed = try await database.withStorage { storage in
            let accounts = try await Accounts(storage: storage, hasher: PasswordHasher(cost: UInt8(database.passwordCost))).list()
            var sizes: [Int] = []
            for account in accounts {
                do throws(StorageError) { sizes.append(try await storage.watchlistSize(owner: WatchlistOwner.account(id: account.id))) } catch { throw AccountError.storage(error) }
            }
            return zip(accounts, sizes).map { ($0, $1) }
        }
        guard !listed.isEmpty else {
            print("No accounts yet: add one with 'marquee accounts add NAME', or let people sign up at /device.")
            return
        }
        let formatter = ISO8601DateFormatter()
        for (account, size) in listed {
            print("\(TerminalText.safe(account.name))\tcreated \(formatter.string(from: account.createdAt))\t\(size) on the watchlist")
        }
    }
}

struct AccountsRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove an account, with its watchlist; every device signed in to it is signed out."
    )

    @Argument(help: ArgumentHelp("The account's name.", valueName: "name"))
    var name: String

    @OptionGroup var database: AccountsDatabaseOptions

    func run() async throws {
        try await database.withAccounts { try await $0.remove(name: name) }
        print("Removed the account \(try AccountName(name)), its watchlist and its sign-ins.")
    }
}

struct AccountsSetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-password", abstract: "Set an account's password; every device signed in to it is signed out."
    )

    @Argument(help: ArgumentHelp("The account's name.", valueName: "name"))
    var name: String

    @OptionGroup var database: AccountsDatabaseOptions

    func run() async throws {
        let account = try AccountName(name)
        let password = try PasswordInput.read(purpose: "New password for \(account)")
        try await database.withAccounts { try await $0.setPassword(name: name, password: password) }
        print("Set a new password for \(account); every device signed in to it was signed out.")
    }
}

struct AccountsAdoptWatchlistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adopt-watchlist",
        abstract: "Give an account the watchlist kept under a client id before accounts existed.",
        discussion: "Per movie, the later change wins; the client's list is empty afterwards."
    )

    @Argument(help: ArgumentHelp("The account's name.", valueName: "name"))
    var name: String

    @Option(name: .customLong("client"), help: ArgumentHelp("The client id whose list it was.", valueName: "id"))
    var clientID: String

    @OptionGroup var database: AccountsDatabaseOptions

    func run() async throws {
        let moved = try await database.withAccounts { try await $0.moveWatchlist(fromClient: clientID, to: name) }
        print("Moved \(moved) watchlist \(moved == 1 ? "entry" : "entries") of the client \(clientID) to \(try AccountName(name)).")
    }
}
