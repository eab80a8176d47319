// Adapts typed C++ callables to the Value-based Body of a Function.
#pragma once

#include <tuple>
#include <type_traits>

namespace tfs::detail {

template <typename T>
T from_value(const Value& v) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, Value>) {
    return v;
  } else if constexpr (std::is_same_v<D, Tensor>) {
    if (v.kind() == Value::Kind::kTensor) return v.as_tensor();
    return convert_to_tensor(v);
  } else if constexpr (std::is_same_v<D, bool>) {
    return v.as_bool();
  } else if constexpr (std::is_integral_v<D>) {
    return static_cast<D>(v.as_int());
  } else if constexpr (std::is_floating_point_v<D>) {
    return static_cast<D>(v.as_double());
  } else if constexpr (std::is_same_v<D, std::string>) {
    return v.as_str();
  } else {
    static_assert(sizeof(D) == 0, "unsupported parameter type for tfs::function");
  }
}

template <typename R>
Value to_value(R&& r) {
  using D = std::decay_t<R>;
  if constexpr (std::is_same_v<D, Value>) return r;
  else if constexpr (std::is_same_v<D, std::vector<Tensor>>) {
    ValueList items;
    for (auto& t : r) items.push_back(Value(t));
    return Value::tuple(std::move(items));
  } else return Value(std::forward<R>(r));
}

template <typename F>
struct callable_traits : callable_traits<decltype(&F::operator())> {};
template <typename C, typename R, typename... A>
struct callable_traits<R (C::*)(A...) const> {
  using result = R;
  using args = std::tuple<A...>;
  static constexpr size_t arity = sizeof...(A);
};
template <typename C, typename R, typename... A>
struct callable_traits<R (C::*)(A...)> : callable_traits<R (C::*)(A...) const> {};

template <typename F, size_t... I>
Value invoke_with(F& f, const std::vector<Value>& args, std::index_sequence<I...>) {
  using Args = typename callable_traits<F>::args;
  using R = typename callable_traits<F>::result;
  if constexpr (std::is_void_v<R>) {
    f(from_value<std::tuple_element_t<I, Args>>(args[I])...);
    return Value();
  } else {
    return to_value(f(from_value<std::tuple_element_t<I, Args>>(args[I])...));
  }
}

}  // namespace tfs::detail

namespace tfs {

template <typename F>
std::shared_ptr<Function> function(std::string name, std::vector<std::string> param_names, F f,
                                   FunctionOptions options) {
  constexpr size_t n = detail::callable_traits<F>::arity;
  if (param_names.size() != n) {
    value_error("[function] " + name + ": " + std::to_string(param_names.size()) +
                " parameter names for a callable of " + std::to_string(n) + " parameters");
  }
  std::vector<Parameter> params;
  for (auto& p : param_names) params.push_back(Parameter{p, ParamKind::kPositionalOrKeyword, std::nullopt});
  Body body = [f](const std::vector<Value>& args, const Kwargs&) mutable {
    return detail::invoke_with(f, args, std::make_index_sequence<n>());
  };
  return std::make_shared<Function>(std::move(name), std::move(params), std::move(body),
                                    std::move(options));
}

}  // namespace tfs
