import Foundation

/// One exchange's last BTC price in one currency, as its ticker gave it: the price as an
/// exact decimal (parsed from the upstream's text, never through `Double`) and the ticker's
/// own time when it carries one. Whether the price is usable (positive, fresh, close to the
/// others) is the index rule's decision (`IndexRule`), not the decoder's.
public struct IndexQuote: Sendable, Equatable {
    public var price: Decimal
    /// Unix seconds of the ticker; nil when the answer carries no time (kraken, bitfinex).
    public var time: Int64?

    public init(price: Decimal, time: Int64?) {
        self.price = price
        self.time = time
    }
}
