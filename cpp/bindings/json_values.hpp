// The engine's JSON values and Python's, each way (shared by the register_* files).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <utility>

#include "manila/json.hpp"

namespace manila_bindings {

namespace py = pybind11;
using manila::Json;

// A JSON string as Python's: json.loads reads an escaped lone surrogate ("\ud800") into a
// str, which the engine keeps as its three UTF-8-like bytes (surrogatepass).
inline py::str to_python_str(const std::string& s) {
    PyObject* o =
        PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogatepass");
    if (!o) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(o);
}

// A Python str as the engine's UTF-8, a lone surrogate kept (to_python_str gives it back).
inline std::string from_python_str(const py::str& s) {
    PyObject* bytes = PyUnicode_AsEncodedString(s.ptr(), "utf-8", "surrogatepass");
    if (!bytes) throw py::error_already_set();
    return std::string(py::reinterpret_steal<py::bytes>(bytes));
}

// A ValueError whose message is the engine's (it may quote a lone surrogate the input held).
[[noreturn]] inline void raise_value_error(const std::string& message) {
    PyErr_SetObject(PyExc_ValueError, to_python_str(message).ptr());
    throw py::error_already_set();
}

// The JSON text Python wrote for a reader (common/inputs.engine_json) as the engine's value.
inline Json from_text(const std::string& text, const char* what) {
    manila::JsonRead read = manila::read_json(manila::code_points(text), true);
    if (!read.ok) raise_value_error(std::string(what) + ": not JSON (" + read.reason + ")");
    return std::move(read.value);
}

// The engine's JSON values as Python ones (objects keep their key order).
inline py::object to_python(const Json& j) {
    switch (j.kind()) {
        case Json::Kind::kNull:
            return py::none();
        case Json::Kind::kBool:
            return py::bool_(j.as_bool());
        case Json::Kind::kInt:
            return py::int_(j.as_int());
        case Json::Kind::kBigInt:
            return py::int_(py::str(j.as_string()));
        case Json::Kind::kFloat:
            return py::float_(j.as_double());
        case Json::Kind::kString:
            return to_python_str(j.as_string());
        case Json::Kind::kArray: {
            py::list out;
            for (const Json& v : j.items()) out.append(to_python(v));
            return std::move(out);
        }
        case Json::Kind::kObject: {
            py::dict out;
            for (const auto& [k, v] : j.members()) out[to_python_str(k)] = to_python(v);
            return std::move(out);
        }
    }
    return py::none();
}

// A Python value as the engine's, when it is what json.loads makes: a dict with str keys,
// a list, a str, an int, a float, a bool or None, and nothing else: not a tuple, a
// subclass or another mapping, which JSON text would have turned into something the
// Python readers refuse or read otherwise. False for anything else (the caller then
// leaves the value to Python), and for an int past 64 bits or a str with a lone surrogate.
inline bool from_python(py::handle h, Json& out) {
    PyObject* o = h.ptr();
    if (o == Py_None) {
        out = Json();
    } else if (o == Py_True || o == Py_False) {
        out = Json(o == Py_True);
    } else if (PyLong_CheckExact(o)) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) return false;
        out = Json(static_cast<std::int64_t>(v));
    } else if (PyFloat_CheckExact(o)) {
        out = Json::number(PyFloat_AS_DOUBLE(o));
    } else if (PyUnicode_CheckExact(o)) {
        Py_ssize_t size = 0;
        const char* text = PyUnicode_AsUTF8AndSize(o, &size);
        if (!text) {
            PyErr_Clear();
            return false;
        }
        out = Json(std::string(text, static_cast<std::size_t>(size)));
    } else if (PyList_CheckExact(o)) {
        out = Json::array();
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); ++i) {
            Json item;
            if (!from_python(PyList_GET_ITEM(o, i), item)) return false;
            out.push(std::move(item));
        }
    } else if (PyDict_CheckExact(o)) {
        out = Json::object();
        PyObject *key = nullptr, *value = nullptr;
        Py_ssize_t pos = 0;
        while (PyDict_Next(o, &pos, &key, &value)) {
            Json item, name;
            if (!PyUnicode_CheckExact(key) || !from_python(key, name) || !from_python(value, item))
                return false;
            out.set(name.as_string(), std::move(item));
        }
    } else {
        return false;
    }
    return true;
}

}  // namespace manila_bindings
