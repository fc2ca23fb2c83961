import FoundationEssentials

/// The two text formats the metrics are served in: Prometheus's (version 0.0.4), and OpenMetrics 1.0 when the
/// scraper's `Accept` header prefers it (Prometheus's own scrapes do).
package enum MetricsFormat: Sendable, Equatable {
    /// `text/plain; version=0.0.4`.
    case prometheus
    /// `application/openmetrics-text; version=1.0.0`, ending with `# EOF`.
    case openMetrics

    /// The format an `Accept` header asks for: OpenMetrics when it lists `application/openmetrics-text` with a
    /// quality above 0 and not below that of any other type it lists; Prometheus's text otherwise (no header, `*/*`,
    /// `text/plain`).
    package init(accept: String?) {
        guard let accept else {
            self = .prometheus
            return
        }
        var openMetrics: Double?
        var others = 0.0
        for range in accept.split(separator: ",") {
            let parameters = range.split(separator: ";").map { $0.trimmingBlanks().lowercased() }
            guard let type = parameters.first else { continue }
            var quality = 1.0
            for parameter in parameters.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if type == "application/openmetrics-text" {
                openMetrics = max(openMetrics ?? 0, quality)
            } else {
                others = max(others, quality)
            }
        }
        if let openMetrics, openMetrics > 0, openMetrics >= others {
            self = .openMetrics
        } else {
            self = .prometheus
        }
    }

    /// The `Content-Type` of a response in this format.
    package var contentType: String {
        switch self {
        case .prometheus: "text/plain; version=0.0.4; charset=utf-8"
        case .openMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8"
        }
    }

    /// `exposition`, in Prometheus's text format, in this format.
    ///
    /// OpenMetrics differs in three ways that matter here: a counter's family is named without `_total` (its
    /// samples keep it), a counter sample must end in `_total`, and the text ends with `# EOF`.
    package func render(_ exposition: [UInt8]) -> [UInt8] {
        guard self == .openMetrics else { return exposition }
        let text = String(decoding: exposition, as: UTF8.self)
        var counters: Set<Substring> = []
        for line in text.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            let words = line.split(separator: " ")
            if words.count == 4, words[3] == "counter" { counters.insert(words[2]) }
        }
        var output = ""
        output.reserveCapacity(text.utf8.count + 64)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                if words.count >= 3, counters.contains(words[2]), words[2].hasSuffix("_total") {
                    output += "\(words[0]) \(words[1]) \(words[2].dropLast(6))"
                    if words.count == 4 { output += " \(words[3])" }
                    output += "\n"
                    continue
                }
                output += line + "\n"
            } else if line.hasPrefix("#") {
                continue
            } else {
                let nameEnd = line.firstIndex(where: { $0 == "{" || $0 == " " }) ?? line.endIndex
                let name = line[..<nameEnd]
                if counters.contains(name), !name.hasSuffix("_total") {
                    output += "\(name)_total\(line[nameEnd...])\n"
                } else {
                    output += line + "\n"
                }
            }
        }
        output += "# EOF\n"
        return Array(output.utf8)
    }
}
