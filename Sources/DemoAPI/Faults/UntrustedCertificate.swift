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

    /// A self-signed certificate for `another-host.invalid` only, valid until 2126, and its key:
    /// a test that trusts it and connects to 127.0.0.1 sees a certificate for another host.
    static let anotherHostCertificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIB8jCCAZigAwIBAgIUXcI5szRHxIy9XGPNVD2D0ElryA0wCgYIKoZIzj0EAwIw
        PTE7MDkGA1UEAwwyTmV0d29ya2luZ0tpdCBEZW1vQVBJIGNlcnRpZmljYXRlIGZv
        ciBhbm90aGVyIGhvc3QwIBcNMjYxMTI4MDIwMTEzWhgPMjEyNjExMDQwMjAxMTNa
        MD0xOzA5BgNVBAMMMk5ldHdvcmtpbmdLaXQgRGVtb0FQSSBjZXJ0aWZpY2F0ZSBm
        b3IgYW5vdGhlciBob3N0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEKHHjk/2r
        GVoduLY85cprfFLZ1Y+c4HSIbZMjHSocMkVuLo9+636tQUoII99ghJ6YunULnV9I
        ksOUmDDWOdfw1aN0MHIwHQYDVR0OBBYEFN5PJOrCSNP9x5VMnNZt9AluPnPQMB8G
        A1UdIwQYMBaAFN5PJOrCSNP9x5VMnNZt9AluPnPQMB8GA1UdEQQYMBaCFGFub3Ro
        ZXItaG9zdC5pbnZhbGlkMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAw
        RQIhAMq721Gm3b9CNX5GSoCFqw/h8BuRq+pWrMeKUAOfGhWcAiA+qkdylvlQnGUD
        oIGn//aihzN2IXRRdwWQv5wN2ITyIA==
        -----END CERTIFICATE-----
        """

    static let anotherHostPrivateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg6VWF+YYMCfk6/uhS
        Hsx/dPwiFNZ03pbH/s9CGndEidChRANCAAQoceOT/asZWh24tjzlymt8UtnVj5zg
        dIhtkyMdKhwyRW4uj37rfq1BSggj32CEnpi6dQudX0iSw5SYMNY51/DV
        -----END PRIVATE KEY-----
        """
}
#endif
