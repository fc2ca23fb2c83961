import Testing
import WorkspaceDaemon

/// The two exposition formats (issue 44): which one an `Accept` header gets, and OpenMetrics's differences.
@Suite("metrics formats")
struct MetricsFormatTests {
    @Test func prometheusScrapesGetOpenMetricsAndOthersGetTheTextFormat() {
        // Prometheus 2.42's scrape header, and one that prefers the text format.
        let prometheus =
            "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
            + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
        #expect(MetricsFormat(accept: prometheus) == .openMetrics)
        #expect(MetricsFormat(accept: "application/openmetrics-text; version=1.0.0") == .openMetrics)
        #expect(MetricsFormat(accept: "text/plain;version=0.0.4,application/openmetrics-text;q=0.5") == .prometheus)
        #expect(MetricsFormat(accept: "application/openmetrics-text;q=0") == .prometheus)
        #expect(MetricsFormat(accept: "*/*") == .prometheus)
        #expect(MetricsFormat(accept: nil) == .prometheus)
        #expect(MetricsFormat.openMetrics.contentType.hasPrefix("application/openmetrics-text; version=1.0.0"))
        #expect(MetricsFormat.prometheus.contentType == "text/plain; version=0.0.4; charset=utf-8")
    }

    @Test func openMetricsNamesCounterFamiliesWithoutTotalAndEndsWithEOF() {
        let text = """
            # HELP workspaced_changes_total Changes applied.
            # TYPE workspaced_changes_total counter
            workspaced_changes_total{operation="favorite.create"} 2
            # TYPE plain_counter counter
            plain_counter 3
            # HELP workspaced_revision The revision.
            # TYPE workspaced_revision gauge
            workspaced_revision 7.0
            # TYPE workspaced_save_duration_seconds histogram
            workspaced_save_duration_seconds_bucket{le="+Inf"} 1
            workspaced_save_duration_seconds_sum 0.25
            workspaced_save_duration_seconds_count 1

            """
        let rendered = String(decoding: MetricsFormat.openMetrics.render(Array(text.utf8)), as: UTF8.self)
        #expect(
            rendered == """
                # HELP workspaced_changes Changes applied.
                # TYPE workspaced_changes counter
                workspaced_changes_total{operation="favorite.create"} 2
                # TYPE plain_counter counter
                plain_counter_total 3
                # HELP workspaced_revision The revision.
                # TYPE workspaced_revision gauge
                workspaced_revision 7.0
                # TYPE workspaced_save_duration_seconds histogram
                workspaced_save_duration_seconds_bucket{le="+Inf"} 1
                workspaced_save_duration_seconds_sum 0.25
                workspaced_save_duration_seconds_count 1
                # EOF

                """)
        #expect(MetricsFormat.prometheus.render(Array(text.utf8)) == Array(text.utf8))
    }
}
