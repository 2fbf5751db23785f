// libFuzzer target `coindesk`: the input is a CoinDesk BPI v1 /v1/bpi/currentprice.json body.
import FuzzSupport
import HTTPClient
import Rates

let provider = CoinDeskProvider()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = inputBytes(data, size)
    RatesFuzz.run(body, provider: provider.name,
                  decode: { json throws(UpstreamError) in try provider.decode(json) },
                  entries: RatesFuzz.coinDeskEntries)
    return 0
}
