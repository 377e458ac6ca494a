apps = {
  web = {
    image = "nginx:1.27"
    ports = [80, 443]
    env   = { MODE = "prod", A = "1" }
    health = { path = "/ready" }
    sidecars = [{ name = "log" }, { name = "proxy", image = "envoy", args = ["--v", "2"] }]
  }
  worker = {
    image    = "worker:2"
    replicas = null
    health   = { enabled = false, interval = 5 }
    storage  = { size = 20 }
  }
  batch = {
    image   = "batch:1"
    ports   = []
    storage = { size = 5, class = "fast" }
  }
}
nullable_default = null
settings = {
  limits = { mem = "2Gi" }
}
