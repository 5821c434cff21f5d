#include "tcp_pair_communicator.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace fabricgate::bench::testing {

namespace {

sockaddr_in make_address(const std::string& address, int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  if (inet_pton(AF_INET, address.c_str(), &a.sin_addr) != 1)
    throw std::runtime_error("bad IPv4 address " + address);
  return a;
}

void set_timeouts(int fd, int seconds) {
  timeval tv{};
  tv.tv_sec = seconds;
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
    if (w <= 0) throw std::runtime_error("bootstrap send failed or timed out");
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

void read_all(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = ::recv(fd, p, n, 0);
    if (r <= 0) throw std::runtime_error("bootstrap receive failed or timed out (peer gone?)");
    p += r;
    n -= static_cast<std::size_t>(r);
  }
}

}  // namespace

TcpPairCommunicator::TcpPairCommunicator(int rank, const std::string& address, int port,
                                         int timeout_s)
    : rank_(rank) {
  const sockaddr_in addr = make_address(address, port);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  if (rank == 0) {
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    set_timeouts(listener, timeout_s);  // bounds accept() too
    if (::bind(listener, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listener, 1) != 0) {
      ::close(listener);
      throw std::runtime_error("bootstrap cannot listen on " + address + ":" +
                               std::to_string(port) + ": " + std::strerror(errno));
    }
    fd_ = ::accept(listener, nullptr, nullptr);
    ::close(listener);
    if (fd_ < 0)
      throw std::runtime_error("bootstrap: no peer connected within " + std::to_string(timeout_s) +
                               " s");
  } else {
    for (;;) {
      fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
      if (::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) break;
      ::close(fd_);
      fd_ = -1;
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("bootstrap: cannot connect to " + address);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  set_timeouts(fd_, timeout_s);
}

TcpPairCommunicator::~TcpPairCommunicator() {
  if (fd_ >= 0) ::close(fd_);
}

std::string TcpPairCommunicator::exchange(const std::string& mine) {
  const std::uint64_t len = mine.size();
  write_all(fd_, &len, sizeof len);
  write_all(fd_, mine.data(), mine.size());
  std::uint64_t theirs_len = 0;
  read_all(fd_, &theirs_len, sizeof theirs_len);
  if (theirs_len > (1u << 26)) throw std::runtime_error("bootstrap: oversized message");
  std::string theirs(theirs_len, '\0');
  read_all(fd_, theirs.data(), theirs.size());
  return theirs;
}

namespace {
std::string exact(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);  // round-trips a double exactly
  return text;
}
}  // namespace

double TcpPairCommunicator::max(double value) {
  return std::max(value, std::stod(exchange(exact(value))));
}
double TcpPairCommunicator::min(double value) {
  return std::min(value, std::stod(exchange(exact(value))));
}
std::int64_t TcpPairCommunicator::sum(std::int64_t value) {
  return value + std::stoll(exchange(std::to_string(value)));
}

std::vector<std::string> TcpPairCommunicator::all_gather(const std::string& value) {
  const std::string other = exchange(value);
  return rank_ == 0 ? std::vector<std::string>{value, other}
                    : std::vector<std::string>{other, value};
}

std::string TcpPairCommunicator::broadcast(const std::string& value, int root) {
  const std::string other = exchange(value);
  return rank_ == root ? value : other;
}

}  // namespace fabricgate::bench::testing
