import FoundationEssentials
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
                        let paneID = WorkspaceID()
                        return try await self.change(
                            request, .createPane, status: .created,
                            .createPane(id: paneID, projectID: id, folder: body.folder, viewMode: viewMode)
                        ) { $0.pane(paneID) }
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
                        return try await self.change(
                            request, .updatePane,
                            .updatePane(
                                id: id, folder: body.folder, viewMode: body.viewMode.map(ViewMode.init(rawValue:)))
                        ) { $0.pane(id) }
                    }
                }
            ),
            (
                APIRoute.deletePane,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .deletePane, .deletePane(id: id)) { _ in Empty() }
                    }
                }
            ),
            (
                APIRoute.createTab,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        let body = try APIJSON.decode(OpenTabRequest.self, from: request.body)
                        let tabID = WorkspaceID()
                        return try await self.change(
                            request, .createTab, status: .created,
                            .createTab(id: tabID, paneID: id, folder: body.folder)
                        ) { $0.tab(tabID) }
                    }
                }
            ),
            (
                APIRoute.deleteTab,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .deleteTab, .deleteTab(id: id)) { _ in Empty() }
                    }
                }
            ),
            (
                APIRoute.focusTab,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .focusTab, .focusTab(id: id)) { _ in Empty() }
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
                        let favoriteID = WorkspaceID()
                        return try await self.change(
                            request, .addFavorite, status: .created,
                            .addFavorite(id: favoriteID, name: body.name, path: body.path, createdAt: now)
                        ) { $0.favorite(favoriteID) }
                    }
                }
            ),
            (
                APIRoute.deleteFavorite,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .deleteFavorite, .deleteFavorite(id: id)) { _ in
                            Empty()
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
                        return try await self.change(
                            request, .updateOwner, .updateOwner(alias: body.alias, email: body.email)
                        ) { $0.owner }
                    }
                }
            ),
        ]
    }
}
