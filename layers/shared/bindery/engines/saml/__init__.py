"""SAML 2.0 Web Browser SSO, the service-provider side (docs/sso.md): the endpoints' URLs, IdP
certificates, AuthnRequests (HTTP-Redirect binding) and the verification of responses (HTTP-POST
binding) with signxml. Pure protocol: no DynamoDB, no HTTP layer."""
