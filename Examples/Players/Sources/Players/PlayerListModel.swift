import Observation
import Ripple

/// The players a list shows, kept up to date by a value observation.
@Observable @MainActor
public final class PlayerListModel {
    /// How the list is sorted.
    public enum Ordering: Sendable {
        case byName
        case byScore
    }

    /// The players, in the list's order.
    public private(set) var players: [Player] = []
    /// The last error of the observation, if any.
    public private(set) var error: (any Error)?

    public var ordering: Ordering = .byScore {
        didSet { observePlayers() }
    }

    private let database: AppDatabase
    @ObservationIgnored private var cancellable: AnyDatabaseCancellable?

    /// Starts observing: `players` holds the players of the database when this returns.
    public init(database: AppDatabase) {
        self.database = database
        observePlayers()
    }

    private func observePlayers() {
        let ordering = ordering
        let observation = ValueObservation.tracking { db in
            switch ordering {
            case .byName: try Player.orderedByName().fetchAll(db)
            case .byScore: try Player.orderedByScore().fetchAll(db)
            }
        }
        // .immediate: the first value is here before `start` returns; later ones come on
        // the main actor, after each transaction that changes the players.
        cancellable = observation.start(in: database.reader, scheduling: .immediate) { [weak self] error in
            self?.error = error
        } onChange: { [weak self] players in
            self?.players = players
        }
    }
}
