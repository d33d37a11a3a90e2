import Hummingbird
import HummingbirdAuth
import NIOCore

/// The context of every routed request: Hummingbird's, with the identity the access token proved
/// (none before `AccessTokenAuthenticator`, or on a path that needs no token), the sign-in page's
/// cookie session (``WebSession``, loaded only under `/device`) and the peer's address (for
/// ``SignInThrottle``).
struct RoutedRequestContext: AuthRequestContext, SessionRequestContext, RequestContext {
    var coreContext: CoreRequestContextStorage
    var identity: AccessTokenIdentity?
    let sessions: SessionContext<WebSession>
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        identity = nil
        sessions = .init()
        remoteAddress = source.channel.remoteAddress
    }
}
