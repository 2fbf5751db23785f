import Base
import Foundation

extension JSONWriter {
    /// An exact JSON number from a `Decimal` (never `Double`), as `DecimalText.json` spells it.
    mutating func number(_ d: Decimal) { raw(DecimalText.json(d)) }
}
