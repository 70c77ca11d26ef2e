//go:build js && wasm

// The engine on the device: the rules, the bots and the game's actor
// compiled to WebAssembly (GOOS=js GOARCH=wasm), answering the web client
// for the rooms of pass-and-play played with no server (internal/local;
// web/src/lib/engine.js loads it, web/build/engine.js builds it).
//
// It sets globalThis.wolfdenEngine once ready:
//
//	handle(method, path, token, body) → Promise<{status, body}>
//	load(room, [record…]) → Promise   a room kept on the device, resumed
//	connect(id, onmessage(text), onclose(code, reason)) → {send(text), close(code, reason)}
//
// and keeps each change through globalThis.wolfdenEngineSave, which the
// page sets before it runs the engine:
//
//	room(id, json) → Promise;  records(id, from, json) → Promise
package main

import (
	"context"
	"errors"
	"syscall/js"

	"github.com/wolfden/wolfden/internal/local"
)

// await waits for a JavaScript promise, from a goroutine of its own (never
// from a callback, which would stop the event loop the promise needs).
func await(p js.Value) error {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return nil
	}
	ch := make(chan error, 1)
	ok := js.FuncOf(func(js.Value, []js.Value) any { ch <- nil; return nil })
	bad := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "failed"
		if len(args) > 0 {
			msg = js.Global().Get("String").Invoke(args[0]).String()
		}
		ch <- errors.New(msg)
		return nil
	})
	p.Call("then", ok, bad)
	err := <-ch
	ok.Release()
	bad.Release()
	return err
}

// saver hands the device's writes to the page's IndexedDB.
type saver struct{ js js.Value }

func (s saver) Room(id string, data []byte) error {
	return await(s.js.Call("room", id, string(data)))
}

func (s saver) Records(id string, from int64, data []byte) error {
	return await(s.js.Call("records", id, from, string(data)))
}

// promise runs f in a goroutine and settles a promise with its result.
func promise(f func() (any, error)) js.Value {
	var exec js.Func
	exec = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			v, err := f()
			if err != nil {
				reject.Invoke(js.Global().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		exec.Release()
		return nil
	})
	return js.Global().Get("Promise").New(exec)
}

func main() {
	var dev *local.Device
	if s := js.Global().Get("wolfdenEngineSave"); s.Type() == js.TypeObject {
		dev = local.New(saver{s})
	} else {
		dev = local.New(nil)
	}
	api := js.Global().Get("Object").New()
	api.Set("handle", js.FuncOf(func(_ js.Value, args []js.Value) any {
		method, path, token, body := args[0].String(), args[1].String(), args[2].String(), args[3].String()
		return promise(func() (any, error) {
			status, out := dev.Handle(context.Background(), method, path, token, []byte(body))
			r := js.Global().Get("Object").New()
			r.Set("status", status)
			r.Set("body", string(out))
			return r, nil
		})
	}))
	api.Set("load", js.FuncOf(func(_ js.Value, args []js.Value) any {
		room := args[0].String()
		recs := make([][]byte, args[1].Length())
		for i := range recs {
			recs[i] = []byte(args[1].Index(i).String())
		}
		return promise(func() (any, error) { return nil, dev.Load([]byte(room), recs) })
	}))
	api.Set("held", js.FuncOf(func(_ js.Value, args []js.Value) any { return dev.Held(args[0].String()) }))
	api.Set("connect", js.FuncOf(func(_ js.Value, args []js.Value) any {
		id, onmessage, onclose := args[0].String(), args[1], args[2]
		s, err := dev.Connect(id,
			func(b []byte) { onmessage.Invoke(string(b)) },
			func(code int, reason string) { onclose.Invoke(code, reason) })
		if err != nil {
			panic(js.Global().Get("Error").New(err.Error()))
		}
		// The frames are taken in order, one at a time, off the event loop.
		in := make(chan []byte, 256)
		go func() {
			for {
				select {
				case b := <-in:
					s.Receive(b)
				case <-s.Done():
					return
				}
			}
		}()
		conn := js.Global().Get("Object").New()
		conn.Set("send", js.FuncOf(func(_ js.Value, args []js.Value) any {
			select {
			case in <- []byte(args[0].String()):
			default: // a client far ahead of its game: closed, as a flood is
				go s.Close(1008, "rate")
			}
			return nil
		}))
		conn.Set("close", js.FuncOf(func(_ js.Value, args []js.Value) any {
			code, reason := 1000, ""
			if len(args) > 0 && args[0].Type() == js.TypeNumber {
				code = args[0].Int()
			}
			if len(args) > 1 && args[1].Type() == js.TypeString {
				reason = args[1].String()
			}
			go s.Close(code, reason)
			return nil
		}))
		return conn
	}))
	js.Global().Set("wolfdenEngine", api)
	if ready := js.Global().Get("wolfdenEngineReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(api)
	}
	select {}
}
