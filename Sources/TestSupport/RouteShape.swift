/// A route's shape for comparing route lists from different sources (the router, the OpenAPI
/// document, the `GET /` index): the method in upper case and every `{placeholder}` as `{}`,
/// since placeholder names are the implementer's choice and the shape is not.
/// `RouteShape.of("get", "/v1/rates/{code}")` is `"GET /v1/rates/{}"`.
public enum RouteShape {
    public static func of(_ method: String, _ pattern: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in method.unicodeScalars {
            out.append(("a"..."z").contains(scalar) ? Unicode.Scalar(UInt8(truncatingIfNeeded: scalar.value - 32)) : scalar)
        }
        out.append(" ")
        var inside = false
        for scalar in pattern.unicodeScalars {
            if scalar == "{" {
                inside = true
                out.append(contentsOf: "{}".unicodeScalars)
            } else if scalar == "}" {
                inside = false
            } else if !inside {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
