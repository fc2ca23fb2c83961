import FoundationEssentials
import NIOHTTP1
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel

extension ControlAPI {
    /// Every route of ``WorkspaceAPI/APIRoute/all`` (docs/api.md), each with its handler.
    package func router() -> HTTPRouter {
        var router = HTTPRouter()
        let routes: [(APIRoute, HTTPRouter.Handler)] =
            readRoutes() + historyRoutes() + projectRoutes() + paneAndTabRoutes() + favoriteAndOwnerRoutes()
            + tokenRoutes() + eventRoutes()
        for (route, handler) in routes {
            do {
                try router.register(HTTPMethod(route.method), route.pattern, handler: measured(route, handler))
            } catch {
                preconditionFailure("invalid route \(route): \(error)")
            }
        }
        return router
    }

    /// `handler`, counted and timed in ``metrics`` by route (`GET /v1/projects/{id}`) and status.
    /// With metrics off, `handler` itself.
    private func measured(_ route: APIRoute, _ handler: @escaping HTTPRouter.Handler) -> HTTPRouter.Handler {
        guard let metrics = self.metrics?.route(route.description) else { return handler }
        return { request in
            let started = ContinuousClock.now
            let response = await handler(request)
            metrics.served(status: response.status.code, duration: ContinuousClock.now - started)
            return response
        }
    }

    /// The metrics in `format`, with the gauges a scrape reads set now: what `GET /v1/metrics` and
    /// `metrics.listen` answer and `metrics.textfile` holds; `nil` with metrics off (`metrics.enabled = false`).
    package func metricsExposition(_ format: MetricsFormat = .prometheus) -> [UInt8]? {
        guard let metrics else { return nil }
        let status = state.status
        let history = state.historyStatus
        return format.render(
            metrics.exposition(
                DaemonMetrics.Scrape(
                    history: history,
                    replica: replica?.statusResponse(revision: status.revision, history: history),
                    subscribers: events.subscriberCount, scrub: scrub?.status, eventsDropped: events.droppedCount)))
    }

    private func readRoutes() -> [(APIRoute, HTTPRouter.Handler)] {
        [
            (APIRoute.status, { _ in await self.respond { self.ok(self.statusResponse()) } }),
            (
                APIRoute.metrics,
                { request in
                    let format = MetricsFormat(accept: request.headers.first(name: "accept"))
                    guard let body = self.metricsExposition(format) else {
                        return .error(
                            .notFound, code: "metrics_off", message: "metrics are off (metrics.enabled = false)")
                    }
                    var response = HTTPResponse(status: .ok, body: body)
                    response.headers.replaceOrAdd(name: "Content-Type", value: format.contentType)
                    return response
                }
            ),
            (APIRoute.workspace, { request in await self.respond { try await self.workspaceResponse(request) } }),
            (
                APIRoute.scrub,
                { request in
                    await self.respond {
                        try APIJSON.requireNoBody(request.body)
                        guard let scrub = self.scrub else {
                            throw APIFailure(.notFound, "scrub_off", "this daemon runs no scrub")
                        }
                        _ = await scrub.runNow()
                        return self.ok(scrub.status)
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
                        let id = WorkspaceID()
                        return try await self.change(
                            request, .createProject, status: .created,
                            .createProject(id: id, name: body.name, layout: Layout(rawValue: body.layout))
                        ) { $0.project(id) }
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
                        return try await self.change(
                            request, .updateProject,
                            .updateProject(id: id, name: body.name, layout: body.layout.map(Layout.init(rawValue:)))
                        ) { $0.project(id) }
                    }
                }
            ),
            (
                APIRoute.deleteProject,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try APIJSON.requireNoBody(request.body)
                        return try await self.change(request, .deleteProject, .deleteProject(id: id)) { _ in Empty() }
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
                        return try await self.change(request, .setActiveProject, .setActiveProject(id: id)) { _ in
                            Empty()
                        }
                    }
                }
            ),
        ]
    }
}
