// HTTPRequest, HTTPResponse, HTTPFields and HTTPMethod's `.get`, `.post`… are the currency of
// NetworkingKit's own API (endpoints, middlewares, transports), so importing NetworkingKit is
// enough to use them. The whole module is re-exported because it is small and every public type
// in it appears in that API; swift-http-types is already a dependency of every user.
@_exported public import HTTPTypes
