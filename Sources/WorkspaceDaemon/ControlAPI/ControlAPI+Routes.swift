import Foundation
import NIOHTTP1
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel

extension ControlAPI {
    /// Every route of ``WorkspaceAPI/APIRoute/all`` (docs/api.md), each with its handler.
    package func router() -> HTTPRouter {
        var router = HTTPRouter()
        let routes: [(APIRoute, HTTPRouter.Handler)] =
            readRoutes() + projectRoutes() + paneAndTabRoutes() + favoriteAndOwnerRoutes() + tokenRoutes()
            + eventRoutes()
        for (route, handler) in routes {
            do {
                try router.register(route.method, route.pattern, handler: handler)
            } catch {
                preconditionFailure("invalid route \(route): \(error)")
            }
        }
        return router
    }

    private func readRoutes() -> [(APIRoute, HTTPRouter.Handler)] {
        [
            (APIRoute.status, { _ in await self.respond { self.ok(self.statusResponse()) } }),
            (
                APIRoute.workspace,
                { _ in
                    await self.respond {
                        let (workspace, revision) = self.state.snapshot
                        let tag = self.etag(revision: revision)
                        return self.ok(
                            WorkspaceResponse(etag: tag, workspace: workspace), headers: ["ETag": tag.quoted])
                    }
                }
            ),
            (
                APIRoute.flush,
                { request in
                    await self.respond {
                        try APIJSON.requireNoBody(request.body)
                        try await self.flush()
                        let status = self.state.status
                        let tag = self.etag(revision: status.revision)
                        return self.ok(
                            ChangeResponse<Empty>(
                                revision: status.revision, etag: tag, durableRevision: status.durableRevision,
                                value: nil),
                            headers: ["ETag": tag.quoted])
                    }
                }
            ),
        ]
    }

    private func projectRoutes() -> [(APIRoute, HTTPRouter.Handler)] {
        [
            (APIRoute.projects, { _ in await self.respond { self.ok(self.state.read { $0.projects }) } }),
            (
                APIRoute.createProject,
                { request in
                    await self.respond {
                        let body = try APIJSON.decode(CreateProjectRequest.self, from: request.body)
                        let layout = Layout(rawValue: body.layout)
                        return try await self.change(request, .createProject, status: .created) {
                            workspace throws(WorkspaceError) in
                            try workspace.createProject(name: body.name, layout: layout)
                        }
                    }
                }
            ),
            (
                APIRoute.project,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        guard let project = self.state.read({ $0.project(id) }) else {
                            throw APIFailure(WorkspaceError.notFound(kind: .project, id: id))
                        }
                        return self.ok(project)
                    }
                }
            ),
            (
                APIRoute.updateProject,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        let body = try APIJSON.decode(UpdateProjectRequest.self, from: request.body)
                        guard body.name != nil || body.layout != nil else {
                            throw APIFailure(.badRequest, APIErrorCode.invalidField, "give name or layout")
                        }
                        return try await self.change(request, .updateProject, singleStep: false) {
                            workspace throws(WorkspaceError) in
                            if let name = body.name { try workspace.renameProject(id, to: name) }
                            if let layout = body.layout {
                                try workspace.setLayout(Layout(rawValue: layout), ofProject: id)
                            }
                            guard let project = workspace.project(id) else { throw .notFound(kind: .project, id: id) }
                            return project
                        }
                    }
                }
            ),
            (
                APIRoute.deleteProject,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .deleteProject) {
                            workspace throws(WorkspaceError) -> Empty in
                            try workspace.deleteProject(id)
                            return Empty()
                        }
                    }
                }
            ),
            (
                APIRoute.activeProject,
                { _ in
                    await self.respond {
                        self.ok(SetActiveProjectRequest(projectID: self.state.read { $0.activeProjectID?.text }))
                    }
                }
            ),
            (
                APIRoute.setActiveProject,
                { request in
                    await self.respond {
                        let body = try APIJSON.decode(SetActiveProjectRequest.self, from: request.body)
                        var id: WorkspaceID?
                        if let text = body.projectID {
                            guard let parsed = WorkspaceID(text) else {
                                throw APIFailure(
                                    .badRequest, APIErrorCode.invalidField, "\"\(text)\" is not a UUID",
                                    field: "projectID")
                            }
                            id = parsed
                        }
                        return try await self.change(request, .setActiveProject) {
                            workspace throws(WorkspaceError) -> Empty in
                            try workspace.setActiveProject(id)
                            return Empty()
                        }
                    }
                }
            ),
        ]
    }
}
