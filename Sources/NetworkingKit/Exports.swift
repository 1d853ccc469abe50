// HTTPRequest, HTTPResponse, HTTPFields and HTTPMethod's `.get`, `.post`… are part of
// NetworkingKit's own API (endpoints, middlewares, transports), so importing NetworkingKit is
// enough to use them, as with swift-openapi-runtime.
@_exported public import HTTPTypes
