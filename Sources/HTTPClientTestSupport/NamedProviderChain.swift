import HTTPClient
import Upstream

extension ProviderChain<String> {
    /// A chain of providers "a", "b", … (`names`, in order) for steward tests: each makes one
    /// GET to `http://<name>.test/` and answers its name in capitals on a 200; anything else
    /// is the provider's failure.
    public static func named(_ names: [String], client: any HTTPClient, steward: Steward) -> ProviderChain<String> {
        ProviderChain(names.map { name in
            .init(name: name) { client in
                let response = try await client.get(UpstreamRequest(url: "http://\(name).test/", provider: name))
                try UpstreamSuccess.require(response, provider: name)
                return name.uppercased()
            }
        }, client: client, steward: steward)
    }
}
