/// Tells a load whether it runs as a background refresh (stale-while-revalidate: a stale
/// value is being served meanwhile, nobody waits for it) or for callers who wait (a miss).
/// Loads read it to let waiting callers go first for scarce resources, such as a provider's
/// last request token.
public enum CacheRefresh {
    @TaskLocal public static var isBackground = false
}
