import WorkspaceModel

/// A request body: the fields it accepts, so unknown ones are refused (`unknown_field`).
public protocol APIRequestBody: Codable, Sendable {
    /// The keys the body may have.
    static var fields: Set<String> { get }
}

/// `POST /v1/projects`.
public struct CreateProjectRequest: APIRequestBody, Equatable {
    /// 1–256 characters, no control characters.
    public var name: String
    /// `single`, `split` or `quad`.
    public var layout: String
    /// The keys the body may have.
    public static let fields: Set<String> = ["name", "layout"]

    /// A request with the given fields.
    public init(name: String, layout: String) {
        self.name = name
        self.layout = layout
    }
}

/// `PATCH /v1/projects/{id}`: the fields to change.
public struct UpdateProjectRequest: APIRequestBody, Equatable {
    /// A new name.
    public var name: String?
    /// A new layout.
    public var layout: String?
    /// The keys the body may have.
    public static let fields: Set<String> = ["name", "layout"]

    /// A request with the given fields.
    public init(name: String? = nil, layout: String? = nil) {
        self.name = name
        self.layout = layout
    }
}

/// `POST /v1/projects/{id}/panes`.
public struct AddPaneRequest: APIRequestBody, Equatable {
    /// An absolute path.
    public var folder: String
    /// `list`, `icons` or `columns`; `list` when absent.
    public var viewMode: String?
    /// The keys the body may have.
    public static let fields: Set<String> = ["folder", "viewMode"]

    /// A request with the given fields.
    public init(folder: String, viewMode: String? = nil) {
        self.folder = folder
        self.viewMode = viewMode
    }
}

/// `PATCH /v1/panes/{id}`: the fields to change.
public struct UpdatePaneRequest: APIRequestBody, Equatable {
    /// A new folder.
    public var folder: String?
    /// A new view mode.
    public var viewMode: String?
    /// The keys the body may have.
    public static let fields: Set<String> = ["folder", "viewMode"]

    /// A request with the given fields.
    public init(folder: String? = nil, viewMode: String? = nil) {
        self.folder = folder
        self.viewMode = viewMode
    }
}

/// `POST /v1/panes/{id}/tabs`.
public struct OpenTabRequest: APIRequestBody, Equatable {
    /// An absolute path.
    public var folder: String
    /// The keys the body may have.
    public static let fields: Set<String> = ["folder"]

    /// A request with the given folder.
    public init(folder: String) {
        self.folder = folder
    }
}

/// `POST /v1/favorites`.
public struct AddFavoriteRequest: APIRequestBody, Equatable {
    /// 1–256 characters, no control characters.
    public var name: String
    /// An absolute path.
    public var path: String
    /// The keys the body may have.
    public static let fields: Set<String> = ["name", "path"]

    /// A request with the given fields.
    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }
}

/// `PUT /v1/active-project`.
public struct SetActiveProjectRequest: APIRequestBody, Equatable {
    /// A project id, or `null` for none.
    public var projectID: String?
    /// The keys the body may have.
    public static let fields: Set<String> = ["projectID"]

    /// A request naming `projectID` (or none).
    public init(projectID: String?) {
        self.projectID = projectID
    }

    private enum CodingKeys: String, CodingKey { case projectID }

    /// Requires the key, allowing `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.projectID) else {
            throw DecodingError.keyNotFound(
                CodingKeys.projectID, .init(codingPath: [], debugDescription: "projectID is required (null for none)"))
        }
        projectID = try container.decode(String?.self, forKey: .projectID)
    }

    /// Writes `projectID`, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(projectID, forKey: .projectID)
    }
}

/// `PATCH /v1/owner`: the fields to change.
public struct UpdateOwnerRequest: APIRequestBody, Equatable {
    /// A new alias.
    public var alias: String?
    /// A new email (empty for none).
    public var email: String?
    /// The keys the body may have.
    public static let fields: Set<String> = ["alias", "email"]

    /// A request with the given fields.
    public init(alias: String? = nil, email: String? = nil) {
        self.alias = alias
        self.email = email
    }
}

/// `POST /v1/tokens`.
public struct CreateTokenRequest: APIRequestBody, Equatable {
    /// What the token is for: 1–256 characters, no control characters.
    public var name: String
    /// `read` (GET and HEAD) or `write` (reads and changes).
    public var scope: String
    /// The keys the body may have.
    public static let fields: Set<String> = ["name", "scope"]

    /// A request with the given fields.
    public init(name: String, scope: String) {
        self.name = name
        self.scope = scope
    }
}

/// `POST /v1/restore` and `POST /v1/projects/{id}/restore`: the revision to go back to.
public struct RestoreRequest: APIRequestBody, Equatable {
    /// A revision of the current lineage, which the history still holds.
    public var at: UInt64
    /// The keys the body may have.
    public static let fields: Set<String> = ["at"]

    /// A request going back to revision `at`.
    public init(at: UInt64) {
        self.at = at
    }

    private enum CodingKeys: String, CodingKey { case at }

    /// Reads `at`, refusing anything but a non-negative integer as a wrong type at `at`: `JSONDecoder` reports a
    /// negative or fractional number as data that is not JSON, without a path, which would be answered as a body
    /// that is not JSON at all.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            at = try container.decode(UInt64.self, forKey: .at)
        } catch let error as DecodingError {
            guard case .dataCorrupted = error else { throw error }
            throw Self.notARevision(container.codingPath)
        } catch {
            throw Self.notARevision(container.codingPath)
        }
    }

    /// The error for an `at` that is a number but not a revision.
    private static func notARevision(_ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(UInt64.self, .init(codingPath: path + [CodingKeys.at], debugDescription: "not a revision"))
    }
}
