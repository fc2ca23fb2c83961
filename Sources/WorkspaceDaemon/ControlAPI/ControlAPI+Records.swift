import Foundation
import NIOHTTP1
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel

extension ControlAPI {
    func paneAndTabRoutes() -> [(APIRoute, HTTPRouter.Handler)] {
        [
            (
                APIRoute.createPane,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        let body = try APIJSON.decode(AddPaneRequest.self, from: request.body)
                        let viewMode = ViewMode(rawValue: body.viewMode ?? ViewMode.list.rawValue)
                        return try await self.change(request, .createPane, status: .created) {
                            workspace throws(WorkspaceError) in
                            try workspace.addPane(toProject: id, folder: body.folder, viewMode: viewMode)
                        }
                    }
                }
            ),
            (
                APIRoute.updatePane,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        let body = try APIJSON.decode(UpdatePaneRequest.self, from: request.body)
                        guard body.folder != nil || body.viewMode != nil else {
                            throw APIFailure(.badRequest, APIErrorCode.invalidField, "give folder or viewMode")
                        }
                        return try await self.change(request, .updatePane, singleStep: false) {
                            workspace throws(WorkspaceError) in
                            if let folder = body.folder { try workspace.setPaneFolder(id, to: folder) }
                            if let mode = body.viewMode {
                                try workspace.setViewMode(ViewMode(rawValue: mode), ofPane: id)
                            }
                            guard let pane = workspace.pane(id) else { throw .notFound(kind: .pane, id: id) }
                            return pane
                        }
                    }
                }
            ),
            (
                APIRoute.deletePane,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .deletePane) {
                            workspace throws(WorkspaceError) -> Empty in
                            try workspace.removePane(id)
                            return Empty()
                        }
                    }
                }
            ),
            (
                APIRoute.createTab,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        let body = try APIJSON.decode(OpenTabRequest.self, from: request.body)
                        return try await self.change(request, .createTab, status: .created) {
                            workspace throws(WorkspaceError) in
                            try workspace.openTab(inPane: id, folder: body.folder)
                        }
                    }
                }
            ),
            (
                APIRoute.deleteTab,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .deleteTab) { workspace throws(WorkspaceError) -> Empty in
                            try workspace.closeTab(id)
                            return Empty()
                        }
                    }
                }
            ),
            (
                APIRoute.focusTab,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .focusTab) { workspace throws(WorkspaceError) -> Empty in
                            try workspace.focusTab(id)
                            return Empty()
                        }
                    }
                }
            ),
        ]
    }

    func favoriteAndOwnerRoutes() -> [(APIRoute, HTTPRouter.Handler)] {
        [
            (APIRoute.favorites, { _ in await self.respond { self.ok(self.state.read { $0.favorites }) } }),
            (
                APIRoute.addFavorite,
                { request in
                    await self.respond {
                        let body = try APIJSON.decode(AddFavoriteRequest.self, from: request.body)
                        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
                        return try await self.change(request, .addFavorite, status: .created) {
                            workspace throws(WorkspaceError) in
                            try workspace.addFavorite(name: body.name, path: body.path, createdAt: now)
                        }
                    }
                }
            ),
            (
                APIRoute.deleteFavorite,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .deleteFavorite) {
                            workspace throws(WorkspaceError) -> Empty in
                            try workspace.removeFavorite(id)
                            return Empty()
                        }
                    }
                }
            ),
            (APIRoute.owner, { _ in await self.respond { self.ok(self.state.read { $0.owner }) } }),
            (
                APIRoute.updateOwner,
                { request in
                    await self.respond {
                        let body = try APIJSON.decode(UpdateOwnerRequest.self, from: request.body)
                        guard body.alias != nil || body.email != nil else {
                            throw APIFailure(.badRequest, APIErrorCode.invalidField, "give alias or email")
                        }
                        return try await self.change(request, .updateOwner, singleStep: false) {
                            workspace throws(WorkspaceError) in
                            if let alias = body.alias { try workspace.setOwnerAlias(alias) }
                            if let email = body.email { try workspace.setOwnerEmail(email) }
                            return workspace.owner
                        }
                    }
                }
            ),
        ]
    }
}
