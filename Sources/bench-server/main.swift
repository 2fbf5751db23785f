// Serves a fixed ~700-byte JSON body through the real HTTPServer, for `scripts/bench-server.sh`.
// Usage: bench-server [port] (or BENCH_PORT); binds 127.0.0.1; SIGTERM/SIGINT stop it.
// BENCH_MAX_CONNECTIONS sets server.maxConnections (20,000), BENCH_QUEUES the queue count.
import HTTP1
import Web
import Glibc

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) : getenv("BENCH_PORT").flatMap { Int(String(cString: $0)) }

/// The body nginx serves from a file in the same benchmark: a rates answer of realistic size.
let body: [UInt8] = {
    var json = #"{"base":"BTC","updated":"2025-01-01T00:00:00Z","source":"coinbase","rates":{"#
    let codes = [("USD", "US Dollar", "$"), ("EUR", "Euro", "€"), ("GBP", "British Pound", "£"),
                 ("JPY", "Japanese Yen", "¥"), ("CHF", "Swiss Franc", "CHF"), ("CAD", "Canadian Dollar", "$"),
                 ("AUD", "Australian Dollar", "$")]
    for (i, (code, name, symbol)) in codes.enumerated() {
        if i > 0 { json += "," }
        json += #""\#(code)":{"code":"\#(code)","name":"\#(name)","symbol":"\#(symbol)","rate":\#(91234.56 + Double(i) * 1111.11)}"#
    }
    json += "}}"
    while json.utf8.count < 700 { json += " " }
    return Array(json.utf8)
}()

if arguments.contains("--print-body") {
    _ = body.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    exit(0)
}

var router = Router()
router.get("/") { _, _ in .ready(.json(body)) }
router.get("/rates") { _, _ in .ready(.json(body)) }

var configuration = HTTPServerConfiguration()
configuration.host = "127.0.0.1"
configuration.port = port ?? 8081
configuration.maxConnections = getenv("BENCH_MAX_CONNECTIONS").flatMap { Int(String(cString: $0)) } ?? 20_000
configuration.serverName = "almanac-bench"
if let queues = getenv("BENCH_QUEUES").flatMap({ Int(String(cString: $0)) }) { configuration.connectionQueueCount = queues }
let server = HTTPServer(configuration: configuration, responder: { [router] request in router.respond(to: request) })
do {
    let bound = try server.start()
    print("bench-server listening on 127.0.0.1:\(bound)")
} catch {
    print("bench-server: \(error)")
    exit(1)
}
await server.runUntilSignalled()
exit(0)
