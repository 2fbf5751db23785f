import Glibc

/// Whether a text is a numeric IP address, as the kernel's own parser (`inet_pton`) reads it: used
/// where an address taken from a request must not be trusted as anything but an address.
public enum NumericAddress {
    /// `203.0.113.7` (dotted quad, nothing else).
    public static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    /// `2001:db8::1` (no brackets, no zone).
    public static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }
}
