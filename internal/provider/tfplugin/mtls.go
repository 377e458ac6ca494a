package tfplugin

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"time"
)

// clientCertEnv is the variable in which go-plugin's servers (every
// provider) expect the client's certificate. A provider given one makes
// a certificate of its own, sends it with its handshake (go-plugin puts
// it in the client's RootCAs), and accepts only connections that present
// the client's: mutual TLS on the provider's socket.
const clientCertEnv = "PLUGIN_CLIENT_CERT"

// clientTLS makes plinth's side of that mutual TLS: a fresh self-signed
// certificate, its PEM for the provider's environment, and the TLS
// configuration to dial with. It is what go-plugin's AutoMTLS does, with
// a P-256 key instead of P-521: the key is made before the provider is
// started, and a P-521 key and certificate took 12 ms of CPU there (and
// its signature in the TLS handshake more, on both sides), a P-256 one
// 0.2 ms, for the 128-bit strength TLS has everywhere else.
func clientTLS() (*tls.Config, string, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, "", fmt.Errorf("making the provider connection's key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, "", fmt.Errorf("making the provider connection's certificate: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "localhost", Organization: []string{"plinth"}},
		DNSNames:     []string{"localhost"},
		NotBefore:    now.Add(-time.Minute),
		NotAfter:     now.Add(365 * 24 * time.Hour), // longer than any run
		// Self-signed, so its own authority: the provider verifies the
		// client against it as a CA.
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, "", fmt.Errorf("making the provider connection's certificate: %w", err)
	}
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	conf := &tls.Config{
		Certificates: []tls.Certificate{cert},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS12,
		ServerName:   "localhost",
	}
	return conf, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), nil
}
