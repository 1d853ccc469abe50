#if DemoAPI
/// A self-signed certificate for 127.0.0.1 and localhost, valid until 2126, and its key: what
/// ``ByteFaultServer``'s TLS listener presents, so that tests can prove a client refuses a
/// certificate nobody vouches for. Made for this purpose only (no real secret): it is public in
/// this repository, so no client should ever trust it.
enum UntrustedCertificate {
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIB6jCCAY+gAwIBAgIURqF67PgnS6Q9LcBKMnt4hDkj9skwCgYIKoZIzj0EAwIw
        OzE5MDcGA1UEAwwwTmV0d29ya2luZ0tpdCBEZW1vQVBJIHVudHJ1c3RlZCB0ZXN0
        IGNlcnRpZmljYXRlMCAXDTI2MTEyMzE4MzAxOFoYDzIxMjYxMDMwMTgzMDE4WjA7
        MTkwNwYDVQQDDDBOZXR3b3JraW5nS2l0IERlbW9BUEkgdW50cnVzdGVkIHRlc3Qg
        Y2VydGlmaWNhdGUwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQjRhoepz7kMtOu
        bWHgsPvPkRbL96Qgl6Y+NxC6LMymwUXOHFBhY5Dk+r12NKYRHH8znP6rbW5jvX8A
        naSchd3mo28wbTAdBgNVHQ4EFgQUfH2345RWOrAz3n/D4wNJnlJ5LzkwHwYDVR0j
        BBgwFoAUfH2345RWOrAz3n/D4wNJnlJ5LzkwDwYDVR0TAQH/BAUwAwEB/zAaBgNV
        HREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZIzj0EAwIDSQAwRgIhAK3lDFCu
        7Tnfs2QfOkO4Sg0utsmC46xQiDZG1uilNGT0AiEAgB457UUsK2yInoLH8YJzGgsG
        3DCRJs3I7HqKGQxAN7Y=
        -----END CERTIFICATE-----
        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgJm6XpM22w6afGHaA
        NgMAIsTLPEDPZfVyOvShNrQZT/qhRANCAAQjRhoepz7kMtOubWHgsPvPkRbL96Qg
        l6Y+NxC6LMymwUXOHFBhY5Dk+r12NKYRHH8znP6rbW5jvX8AnaSchd3m
        -----END PRIVATE KEY-----
        """
}
#endif
