// libFuzzer target `coinbase`: the input is Coinbase's /v2/exchange-rates body.
import FuzzSupport
import HTTPClient
import Rates

let provider = CoinbaseProvider()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = inputBytes(data, size)
    RatesFuzz.run(body, provider: provider.name,
                  decode: { json throws(UpstreamError) in try provider.decode(json, fetchedAt: RatesFuzz.fetchedAt) },
                  entries: RatesFuzz.coinbaseEntries)
    return 0
}
