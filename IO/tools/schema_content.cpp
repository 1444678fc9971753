// The content notation of the schema table, parsed (see Structure in Schema.hpp).

#include "schema_content.hpp"

#include <cctype>
#include <stdexcept>

namespace nsdyn::io::tools {

namespace {

class Parser {
 public:
  Parser(const std::string& owner, const std::string& text) : owner_(owner), text_(text) {}

  Particle content() {
    Particle p = particle();
    skip();
    if (at_ != text_.size()) fail("text after the content");
    return p;
  }

 private:
  const std::string& owner_;
  const std::string& text_;
  std::size_t at_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("schema structure of <" + owner_ + ">: " + what + " at " +
                                std::to_string(at_) + " of '" + text_ + "'");
  }

  void skip() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }

  std::string word() {
    skip();
    const std::size_t from = at_;
    while (at_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
      ++at_;
    if (at_ == from) fail("expected a name");
    return text_.substr(from, at_ - from);
  }

  int number() {
    skip();
    const std::size_t from = at_;
    while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
    if (at_ == from) fail("expected a number");
    return std::stoi(text_.substr(from, at_ - from));
  }

  void expect(char c) {
    skip();
    if (at_ >= text_.size() || text_[at_] != c) fail(std::string("expected '") + c + "'");
    ++at_;
  }

  void occurrence(Particle& p) {
    if (at_ >= text_.size()) return;
    switch (text_[at_]) {
      case '?':
        p.min = 0;
        ++at_;
        break;
      case '*':
        p.min = 0;
        p.max = -1;
        ++at_;
        break;
      case '+':
        p.max = -1;
        ++at_;
        break;
      case '{':
        ++at_;
        p.min = number();
        expect(',');
        p.max = number();
        expect('}');
        break;
      default:
        break;
    }
  }

  Particle particle() {
    Particle p;
    p.name = word();
    skip();
    if (at_ < text_.size() && text_[at_] == '(') {
      if (p.name == "seq")
        p.kind = Particle::Kind::Sequence;
      else if (p.name == "choice")
        p.kind = Particle::Kind::Choice;
      else if (p.name == "all")
        p.kind = Particle::Kind::All;
      else
        fail("unknown group '" + p.name + "'");
      p.name.clear();
      ++at_;
      for (;;) {
        p.children.push_back(particle());
        skip();
        if (at_ < text_.size() && text_[at_] == ',') {
          ++at_;
          continue;
        }
        expect(')');
        break;
      }
    } else if (at_ < text_.size() && text_[at_] == ':') {
      ++at_;
      p.type = word();
    }
    occurrence(p);
    return p;
  }
};

}  // namespace

Particle parseContent(const std::string& owner, const std::string& text) {
  if (text.empty() || text == "text") {
    Particle none;
    none.kind = Particle::Kind::Sequence;
    return none;
  }
  return Parser(owner, text).content();
}

}  // namespace nsdyn::io::tools
