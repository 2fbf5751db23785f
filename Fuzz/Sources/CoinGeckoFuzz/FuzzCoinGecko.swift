// libFuzzer target `coingecko`: the input is CoinGecko's /api/v3/simple/price body.
import FuzzSupport
import HTTPClient
import Rates

let provider = CoinGeckoProvider()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = inputBytes(data, size)
    RatesFuzz.run(body, provider: provider.name,
                  decode: { json throws(UpstreamError) in try provider.decode(json, fetchedAt: RatesFuzz.fetchedAt) },
                  entries: RatesFuzz.coinGeckoEntries)
    return 0
}
